import type { PlanCommand } from '../../domain/plan-command.js';
import type { TargetCommands } from '../target.js';

/** What the macOS plan does (targets/apfs/plan.ts recommendMacosEncryption decides it). */
export type MacosAction =
  | { readonly kind: 'filevault' }
  | { readonly kind: 'encrypt-volume'; readonly volume: string }
  | { readonly kind: 'new-volume'; readonly container: string | null }
  | { readonly kind: 'nothing'; readonly volume: string }
  /** FileVault's or the drive's encryption state is unknown (no fdesetup, no diskutil): no command may assume it is off. */
  | { readonly kind: 'unknown' };

/**
 * APFS's commands: diskutil adds an encrypted volume to the container (diskutil(8) apfs addVolume
 * -passprompt); the container's space is shared, so no partition is laid out. GPT type af0a is "Apple APFS"
 * (sgdisk(8) -L).
 */
export const apfsCommands: TargetCommands = {
  gptType: 'af0a',
  partitions: false,
  volume: (input) => [
    {
      id: 'apfs-add-volume',
      purpose:
        'Add an encrypted APFS volume to the container; diskutil prompts for the passphrase (-passprompt).',
      argv: ['diskutil', 'apfs', 'addVolume', input.devicePath, 'APFS', input.label, '-passprompt'],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
  ],
};

/**
 * The macOS commands of a plan, in macOS syntax (sh). No secret is ever in argv: fdesetup and diskutil ask for
 * the password at their own prompt (fdesetup(8) "enable"; diskutil(8) "-passprompt").
 */
export function darwinCommands(action: MacosAction, label: string, trimforce: boolean): PlanCommand[] {
  const commands: PlanCommand[] = [];
  switch (action.kind) {
    case 'filevault':
      commands.push({
        id: 'filevault-enable',
        purpose:
          'Turn FileVault on for the startup disk (as root): fdesetup asks for an administrator’s name and password at its prompt and prints the personal recovery key, which you keep away from the Mac (fdesetup(8) "enable").',
        argv: ['fdesetup', 'enable'],
        risk: 'changes-settings',
        stdin: 'passphrase',
      });
      break;
    case 'encrypt-volume':
      commands.push({
        id: 'apfs-encrypt-volume',
        purpose: `Encrypt the APFS volume ${action.volume} in place, its data kept; diskutil asks for the new passphrase at its prompt (diskutil(8) "apfs encryptVolume … -user disk -passprompt"); the conversion runs in the background.`,
        argv: ['diskutil', 'apfs', 'encryptVolume', action.volume, '-user', 'disk', '-passprompt'],
        risk: 'changes-settings',
        stdin: 'passphrase',
      });
      break;
    case 'new-volume':
      if (action.container !== null) {
        commands.push({
          id: 'apfs-add-volume',
          purpose: `Add an encrypted APFS volume "${label}" to the container ${action.container}; it shares the container’s free space and diskutil asks for the passphrase at its prompt (diskutil(8) "apfs addVolume … -passprompt").`,
          argv: ['diskutil', 'apfs', 'addVolume', action.container, 'APFS', label, '-passprompt'],
          risk: 'changes-settings',
          stdin: 'passphrase',
        });
      }
      break;
    case 'nothing':
    case 'unknown':
      break;
  }
  if (action.kind !== 'new-volume' || action.container !== null) {
    commands.push({
      id: 'filevault-status',
      purpose: 'Show FileVault’s state and the progress of encryption (fdesetup(8) "status").',
      argv: ['fdesetup', 'status'],
      risk: 'read-only',
      stdin: null,
    });
  }
  if (trimforce) {
    commands.push({
      id: 'trimforce-enable',
      purpose:
        'Send TRIM to third-party SSDs (as root). Apple warns that a drive which mishandles TRIM may lose data; the Mac restarts when it is done (trimforce(8)).',
      argv: ['trimforce', 'enable'],
      risk: 'changes-settings',
      stdin: null,
    });
  }
  return commands;
}
