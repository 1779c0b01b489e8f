import type { PlanCommand } from '../../domain/plan-command.js';
import { powershell } from '../windows-commands.js';

/** BitLocker's encryption methods as manage-bde spells them (manage-bde -on -EncryptionMethod). */
export type BitLockerMethod = 'xts_aes128' | 'xts_aes256';

/** What the Windows plan does with BitLocker (targets/bitlocker/plan.ts recommendBitLocker decides it). */
export type BitLockerAction =
  | { readonly kind: 'enable'; readonly mountPoint: string | null; readonly osVolume: boolean }
  | { readonly kind: 're-encrypt-in-software'; readonly mountPoint: string }
  /** Fully encrypted and protecting; `wipeFreeSpace` when only used space was encrypted. */
  | { readonly kind: 'nothing'; readonly mountPoint: string; readonly wipeFreeSpace?: boolean }
  /** Encrypted but protection suspended (or off): turn the key protectors back on. */
  | { readonly kind: 'resume-protection'; readonly mountPoint: string }
  /** Encryption paused part-way: resume it. */
  | { readonly kind: 'resume-encryption'; readonly mountPoint: string }
  /** A conversion is running (encrypting or decrypting): follow it, then act on what it ends in. */
  | { readonly kind: 'wait-for-conversion'; readonly mountPoint: string; readonly enableAfter: boolean }
  /** Neither manage-bde nor Get-BitLockerVolume answered: no command may assume BitLocker is off. */
  | { readonly kind: 'unknown'; readonly mountPoint: string | null };

function statusCommand(mountPoint: string): PlanCommand {
  return powershell({
    id: 'bitlocker-status',
    purpose: `Show the BitLocker state, method and progress of ${mountPoint} (manage-bde -status).`,
    argv: ['manage-bde', '-status', mountPoint],
    risk: 'read-only',
    stdin: null,
  });
}

/** Turns the key protectors of a suspended (or never protecting) volume back on (Microsoft Learn, "manage-bde protectors"). */
function protectorsEnable(mountPoint: string): PlanCommand {
  return powershell({
    id: 'bitlocker-protectors-enable',
    purpose: `Turn BitLocker protection of ${mountPoint} back on, once manage-bde -status reports it Fully Encrypted (manage-bde -protectors -enable; PowerShell: Resume-BitLocker -MountPoint ${mountPoint}). Until then its volume key is stored in the clear on the disk.`,
    argv: ['manage-bde', '-protectors', '-enable', mountPoint],
    risk: 'changes-settings',
    stdin: null,
  });
}

/** BitLocker: turn it on in software with the planned method, or decrypt a hardware-encrypted volume first. */
export function bitlockerCommands(action: BitLockerAction, method: BitLockerMethod): PlanCommand[] {
  switch (action.kind) {
    case 'enable': {
      if (action.mountPoint === null) {
        // No drive letter known: no command that would assume one.
        return [];
      }
      const protectors = action.osVolume ? ['-RecoveryPassword'] : ['-Password', '-RecoveryPassword'];
      return [
        powershell({
          id: 'bitlocker-enable',
          purpose: `Turn BitLocker on for ${action.mountPoint} in software with ${method === 'xts_aes256' ? 'XTS-AES 256' : 'XTS-AES 128'} (-EncryptionMethod ${method}; PowerShell: Enable-BitLocker -EncryptionMethod ${method === 'xts_aes256' ? 'XtsAes256' : 'XtsAes128'}). ${action.osVolume ? 'The operating-system volume is unlocked by the TPM; ' : 'manage-bde asks for the unlock password at its prompt; '}-RecoveryPassword prints a 48-digit recovery password: store it away from this PC. -UsedSpaceOnly encrypts only used space (fast, right for a new drive); on a drive that held deleted data, leave it out so free space is encrypted too (Microsoft, "manage-bde on").`,
          argv: [
            'manage-bde',
            '-on',
            action.mountPoint,
            '-EncryptionMethod',
            method,
            '-UsedSpaceOnly',
            ...protectors,
          ],
          risk: 'changes-settings',
          stdin: action.osVolume ? null : 'passphrase',
        }),
        statusCommand(action.mountPoint),
      ];
    }
    case 're-encrypt-in-software':
      return [
        powershell({
          id: 'bitlocker-off',
          purpose: `Decrypt ${action.mountPoint}, whose BitLocker relies on the drive’s hardware encryption (manage-bde -off). When manage-bde -status reports it fully decrypted, assess again: the plan then turns BitLocker on in software. Decrypting and encrypting again each rewrite the used space once.`,
          argv: ['manage-bde', '-off', action.mountPoint],
          risk: 'changes-settings',
          stdin: null,
        }),
        statusCommand(action.mountPoint),
      ];
    case 'nothing':
      return [
        statusCommand(action.mountPoint),
        ...(action.wipeFreeSpace === true
          ? [
              powershell({
                id: 'bitlocker-wipe-free-space',
                purpose: `Overwrite the free space of ${action.mountPoint}, encrypted "used space only": data deleted before BitLocker was turned on may still be readable there; wiping it gives the protection of full-volume encryption (Microsoft Learn, "manage-bde wipefreespace"). Runs for hours on a large volume; the PC stays usable.`,
                argv: ['manage-bde', '-wipefreespace', action.mountPoint],
                risk: 'changes-settings',
                stdin: null,
              }),
            ]
          : []),
      ];
    case 'resume-protection':
      return [protectorsEnable(action.mountPoint), statusCommand(action.mountPoint)];
    case 'resume-encryption':
      return [
        powershell({
          id: 'bitlocker-resume',
          purpose: `Resume the paused BitLocker encryption of ${action.mountPoint} (manage-bde -resume; PowerShell: Resume-BitLocker).`,
          argv: ['manage-bde', '-resume', action.mountPoint],
          risk: 'changes-settings',
          stdin: null,
        }),
        statusCommand(action.mountPoint),
      ];
    case 'wait-for-conversion':
      return [
        statusCommand(action.mountPoint),
        ...(action.enableAfter ? [protectorsEnable(action.mountPoint)] : []),
      ];
    case 'unknown':
      return action.mountPoint === null ? [] : [statusCommand(action.mountPoint)];
  }
}
