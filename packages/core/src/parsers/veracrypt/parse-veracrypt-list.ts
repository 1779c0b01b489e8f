import { EncplanError } from '../../errors.js';

/** One volume from `veracrypt --text --list --verbose`. */
export interface VeracryptVolume {
  readonly slot: number;
  readonly volume: string;
  readonly virtualDevice: string | null;
  readonly mountDirectory: string | null;
  readonly encryptionAlgorithm: string | null;
  /** "XTS"; null when not listed. */
  readonly mode: string | null;
  /** Primary plus secondary (XTS) key bits per cipher: 256 + 256 = 512 for AES-XTS; null when not listed. */
  readonly keyBits: number | null;
}

function bitsOf(text: string | undefined): number | null {
  const match = /^(\d+) bits$/.exec(text ?? '');
  return match?.[1] === undefined ? null : Number(match[1]);
}

function keyBitsOf(fields: ReadonlyMap<string, string>): number | null {
  const primary = bitsOf(fields.get('Primary Key Size'));
  const secondary = bitsOf(fields.get('Secondary Key Size (XTS Mode)'));
  return primary === null ? null : primary + (secondary ?? 0);
}

/**
 * Parses `veracrypt --text --list --verbose`: blank-line separated blocks of "Key: value" lines, each
 * starting with "Slot:" (fixture veracrypt/list-verbose-two-aes-volumes). Fails closed on other text.
 */
export function parseVeracryptList(text: string): VeracryptVolume[] {
  const blocks = text
    .split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return blocks.map((block) => {
    const fields = new Map<string, string>();
    for (const line of block.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) {
        fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
    }
    const slot = Number(fields.get('Slot'));
    const volume = fields.get('Volume');
    if (!Number.isInteger(slot) || volume === undefined) {
      throw new EncplanError(
        'TOOL_OUTPUT_UNRECOGNIZED',
        'veracrypt --list output has a block without Slot and Volume.',
        {
          details: { tool: 'veracrypt', block: block.slice(0, 200) },
        },
      );
    }
    return {
      slot,
      volume,
      virtualDevice: fields.get('Virtual Device') ?? null,
      mountDirectory: fields.get('Mount Directory') ?? null,
      encryptionAlgorithm: fields.get('Encryption Algorithm') ?? null,
      mode: fields.get('Mode of Operation') ?? null,
      keyBits: keyBitsOf(fields),
    };
  });
}
