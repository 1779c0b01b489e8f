import { MIB } from '../domain/units.js';
import type { VeracryptEncryption } from '../rules/cipher.js';
import type { VeracryptKdf } from '../rules/key-derivation.js';
import type { BitLockerAction, BitLockerMethod } from '../rules/platform-encryption.js';
import type { PlanCommand } from './commands.js';

/**
 * The Windows commands of a plan, as PowerShell lines (`shell: "powershell"`). No secret is ever in argv:
 * manage-bde asks for a password at its prompt (`-Password` without a value) and prints the recovery password
 * it generates (`-RecoveryPassword` without a value) (Microsoft, "manage-bde on").
 */

const powershell = (command: Omit<PlanCommand, 'shell'>): PlanCommand => ({
  ...command,
  shell: 'powershell',
});

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

/** Turns TRIM on for NTFS (Microsoft, "fsutil behavior": DisableDeleteNotify 0 = TRIM sent). */
export function enableTrimCommand(): PlanCommand {
  return powershell({
    id: 'fsutil-enable-trim',
    purpose:
      'Let Windows send TRIM to SSDs (fsutil behavior set DisableDeleteNotify 0; run as administrator).',
    argv: ['fsutil', 'behavior', 'set', 'DisableDeleteNotify', '0'],
    risk: 'changes-settings',
    stdin: null,
  });
}

/** Where VeraCrypt installs its volume creation program (VeraCrypt documentation, "Command Line Usage for Windows"). */
const VERACRYPT_FORMAT_EXE = 'C:\\Program Files\\VeraCrypt\\VeraCrypt Format.exe';

/** VeraCrypt Format.exe's /encryption names (cascades in parentheses). */
const WINDOWS_ENCRYPTION: Readonly<Record<VeracryptEncryption, string>> = {
  AES: 'AES',
  Serpent: 'Serpent',
  Twofish: 'Twofish',
  'AES-Twofish-Serpent': 'AES(Twofish(Serpent))',
};

/**
 * The largest share of its volume a dynamic container may grow to: half. The assessment knows the volume's
 * size, not its free space, and a dynamic container that fills the system volume stops Windows; half always
 * leaves the other half to what is there (encplan's policy, stated in the command's purpose).
 */
const CONTAINER_VOLUME_SHARE = 0.5;

/**
 * A VeraCrypt file container in VeraCrypt's Windows syntax. `/create` makes file containers only (partitions,
 * drives and the system are encrypted in the wizard); `/dynamic` makes it grow as it fills, up to `/size`
 * (VeraCrypt documentation, "Command Line Usage for Windows"). Its only password switch, /password, would put
 * the password into the command line: encplan leaves it out.
 */
export function veracryptWindowsCommands(
  mountPoint: string | null,
  settings: { readonly encryption: VeracryptEncryption; readonly kdf: VeracryptKdf },
  label: string,
  sizeBytes: number | null,
): PlanCommand[] {
  if (mountPoint === null || sizeBytes === null) {
    return [];
  }
  // /size in whole MiB (VeraCrypt Format.exe takes a number with a K/M/G/T suffix: "Command Line Usage for Windows").
  const containerMiB = Math.floor((sizeBytes * CONTAINER_VOLUME_SHARE) / MIB);
  if (containerMiB < 1) {
    return [];
  }
  return [
    powershell({
      id: 'veracrypt-create',
      purpose: `Create a dynamic VeraCrypt file container on ${mountPoint} with ${settings.encryption}, ${settings.kdf.hash} and the planned PIM ${String(settings.kdf.pim)} (/pim: VeraCrypt Format.exe reads it, src/Format/Tcformat.c; the same PIM is needed to mount it). It grows as it fills, up to ${String(containerMiB)} MiB, half of ${mountPoint}, so it can never fill the volume: change /size to what you need and what is free there. VeraCrypt Format.exe takes a password only as /password on its command line, where shell history and the process list would keep it: encplan leaves it out. Add it only in a session that saves no history, or create the same container in the VeraCrypt Volume Creation Wizard.`,
      argv: [
        VERACRYPT_FORMAT_EXE,
        '/create',
        `${mountPoint}\\${label}.hc`,
        '/size',
        `${String(containerMiB)}M`,
        '/dynamic',
        '/encryption',
        WINDOWS_ENCRYPTION[settings.encryption],
        '/hash',
        settings.kdf.hash,
        '/pim',
        String(settings.kdf.pim),
        '/filesystem',
        'NTFS',
      ],
      risk: 'changes-settings',
      stdin: null,
    }),
  ];
}
