import { EncplanError } from '../../errors.js';

/** Whether `diskutil info -plist` says the volume is encrypted, and its mount point. */
export interface DiskutilEncryption {
  readonly encrypted: boolean | null;
  readonly fileVault: boolean | null;
  readonly mountPoint: string | null;
}

function booleanKey(text: string, key: string): boolean | null {
  const match = new RegExp(`<key>${key}</key>\\s*<(true|false)/>`).exec(text);
  return match === null ? null : match[1] === 'true';
}

/**
 * Reads the Encryption, FileVault and MountPoint keys of `diskutil info -plist` (fixture
 * diskutil/info-plist-internal-ssd-filevault-macos11). Older diskutil omits keys: they are null then.
 */
export function parseDiskutilEncryption(text: string): DiskutilEncryption {
  if (!/<plist[\s>]/.test(text) || !text.includes('<dict>')) {
    throw new EncplanError(
      'TOOL_OUTPUT_UNRECOGNIZED',
      'diskutil info -plist output is not a property list.',
      { details: { tool: 'diskutil' } },
    );
  }
  const mount = /<key>MountPoint<\/key>\s*<string>([^<]*)<\/string>/.exec(text);
  return {
    encrypted: booleanKey(text, 'Encryption'),
    fileVault: booleanKey(text, 'FileVault'),
    mountPoint: mount?.[1] ?? null,
  };
}
