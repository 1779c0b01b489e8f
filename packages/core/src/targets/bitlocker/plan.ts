import type { Finding } from '../../domain/recommendation.js';
import type { EncryptionState, StorageModel } from '../../domain/storage-model.js';
import { diskEvidence, infoFinding as info, volumeEvidence } from '../platform-evidence.js';
import type { PlatformPlanHook, PlatformPlanInput, TargetRuleResult } from '../target.js';
import { enableTrimCommand } from '../windows-commands.js';
import { bitlockerCommands, type BitLockerAction, type BitLockerMethod } from './commands.js';

/**
 * The BitLocker target's plan on Windows, from the storage model alone (domain/storage-model.ts): the method, what
 * to do about an existing BitLocker volume (its protection and conversion state), and manage-bde commands. Pure;
 * every claim cites Microsoft's document or the paper it comes from.
 */

/** The finding of an existing encryption that does not protect yet (protection off or suspended, mid-conversion). */
export const ENCRYPTION_UNFINISHED = 'encryption-unfinished';

function mountPointOf(storage: StorageModel): string | null {
  const mounted = storage.partitions
    .map((part) => part.mountpoint)
    .filter((mount): mount is string => typeof mount === 'string' && /^[A-Za-z]:$/.test(mount));
  return mounted.includes('C:') ? 'C:' : (mounted[0] ?? null);
}

const percentText = (state: EncryptionState): string =>
  state.percentEncrypted === null ? '' : ` (${String(state.percentEncrypted)} % encrypted)`;

/**
 * What to do about a BitLocker volume that is not fully protecting: encryption running or paused, decryption
 * running or paused, protection off or suspended. Null when it is fully encrypted and protecting (or when its
 * state is unknown). Never "nothing to encrypt" for these (issue: a German manage-bde -status with "Der Schutz
 * ist deaktiviert", 3,5 % was reported already protected). Commands: manage-bde -resume (resumes a paused
 * conversion), -protectors -enable (Resume-BitLocker: protection back on) (Microsoft Learn, "manage-bde resume",
 * "manage-bde protectors", "Suspend-BitLocker": a suspended volume keeps its key in the clear on the disk).
 */
function unfinishedBitLocker(
  volume: string,
  state: EncryptionState,
): { readonly action: BitLockerAction; readonly message: string } | null {
  const off = state.protection === 'off' || state.protection === 'suspended';
  const offText =
    ' and its protection is off: the volume key is stored in the clear on the disk, so anyone holding the disk reads the data';
  switch (state.conversion) {
    case 'encrypting':
      return {
        action: { kind: 'wait-for-conversion', mountPoint: volume, enableAfter: off },
        message: `BitLocker is still encrypting ${volume}${percentText(state)}${off ? offText : ''}. Keep the PC on and plugged in; manage-bde -status ${volume} shows the progress.${off ? ` When it reports Fully Encrypted and protection is still off, turn it on: manage-bde -protectors -enable ${volume}.` : ''}`,
      };
    case 'encryption-paused':
      return {
        action: { kind: 'resume-encryption', mountPoint: volume },
        message: `BitLocker encryption of ${volume} is paused${percentText(state)}${off ? offText : ''}: the rest of the volume is not encrypted. Resume it: manage-bde -resume ${volume}${off ? `, then, once Fully Encrypted, manage-bde -protectors -enable ${volume}` : ''}.`,
      };
    case 'decrypting':
    case 'decryption-paused':
      return {
        action: { kind: 'wait-for-conversion', mountPoint: volume, enableAfter: false },
        message: `BitLocker is being turned off on ${volume}${percentText(state)}${state.conversion === 'decryption-paused' ? ', decryption paused' : ''}: the data is becoming readable without a key. If that is not intended, let decryption finish (manage-bde -status ${volume}), then assess again: the plan turns BitLocker on in software.`,
      };
    default:
      return off
        ? {
            action: { kind: 'resume-protection', mountPoint: volume },
            message: `${volume} is encrypted with BitLocker but protection is ${state.protection === 'suspended' ? 'suspended' : 'off'}: the volume key is stored in the clear on the disk, so the encryption protects nothing until it is turned back on: manage-bde -protectors -enable ${volume} (PowerShell: Resume-BitLocker -MountPoint ${volume}).`,
          }
        : null;
  }
}

/**
 * `bitlocker-method`: XTS-AES 256 in software. XTS-AES 128 is Windows' default (BitLocker policy
 * "EncryptionMethodWithXtsOs", default value 6 = XTS-AES 128, Policy CSP BitLocker); AES-256 runs 14 rounds to
 * AES-128's 10 (FIPS 197 §5), a cost the CPU's AES instructions absorb, so 256 unless speed over security is
 * asked for. Software, never the drive's own encryption: Meijer and van Gastel, "Self-encrypting deception:
 * weaknesses in the encryption of solid state drives" (2018; IEEE S&P 2019) recovered data from drives BitLocker
 * trusted, Microsoft advised software encryption (Security Advisory ADV180028, November 2018) and made it the
 * default for newly encrypted drives with KB4516071 (24 September 2019); existing hardware-encrypted volumes
 * keep hardware encryption until decrypted and encrypted again. The existing encryption is read from the storage
 * model (its protection and conversion state), never from a platform-specific section.
 */
function recommendBitLocker(
  model: StorageModel,
  options: PlatformPlanInput['options'],
  encrypts: PlatformPlanInput['encrypts'],
): TargetRuleResult & { readonly action: BitLockerAction; readonly method: BitLockerMethod } {
  const method: BitLockerMethod = options.speedOverSecurity ? 'xts_aes128' : 'xts_aes256';
  const keyBits = method === 'xts_aes256' ? 256 : 128;
  const encrypted = model.volumes.filter((volume) => encrypts(volume.encryption?.kind));
  const existing = encrypted[0];
  const state = existing?.encryption ?? null;
  const mountPoint = existing?.id ?? mountPointOf(model);
  const reasons = [
    ...diskEvidence(model),
    ...(existing === undefined || state === null ? [] : volumeEvidence(existing, state)),
  ];
  const findings: Finding[] = [];
  let action: BitLockerAction;
  const unfinished =
    existing === undefined || state === null ? null : unfinishedBitLocker(existing.id, state);
  if (existing !== undefined && state?.hardware === true) {
    action = { kind: 're-encrypt-in-software', mountPoint: existing.id };
    findings.push({
      ruleId: 'bitlocker-hardware-encryption',
      severity: 'critical',
      message: `BitLocker on ${existing.id} relies on the drive's own hardware encryption. Meijer and van Gastel (2018, IEEE S&P 2019) recovered the data of such drives without the password; Microsoft advised software encryption (ADV180028) and made it the default in 2019 (KB4516071), but an existing volume keeps hardware encryption: decrypt it (manage-bde -off) and turn BitLocker on again in software.`,
      evidence: reasons,
    });
  } else if (unfinished !== null) {
    action = unfinished.action;
    findings.push({
      ruleId: ENCRYPTION_UNFINISHED,
      severity: 'warning',
      message: unfinished.message,
      evidence: reasons,
    });
  } else if (existing !== undefined && state !== null) {
    const usedSpaceOnly = state.conversion === 'used-space-only';
    action = { kind: 'nothing', mountPoint: existing.id, wipeFreeSpace: usedSpaceOnly };
    const weaker = state.keyBits !== null && state.keyBits < keyBits;
    findings.push(
      info(
        'bitlocker-existing',
        `BitLocker already protects ${existing.id} in software (${String(state.cipher ?? 'unknown method').toUpperCase()} ${String(state.keyBits ?? '')}).${state.protection === 'unknown' ? ' Whether its protection is on is unknown: manage-bde -status shows it.' : ''}${usedSpaceOnly ? ` Only used space was encrypted: data deleted before BitLocker was turned on may still be readable in the free space; manage-bde -wipefreespace ${existing.id} overwrites it, which gives the protection of full-volume encryption (Microsoft Learn, "manage-bde wipefreespace").` : ''}${weaker ? ` The plan would choose XTS-AES ${String(keyBits)}; changing the method means decrypting and encrypting the whole volume again (a full rewrite of the drive), not needed against a lost device.` : ''}`,
        reasons,
      ),
    );
  } else {
    const off = model.volumes.find(
      (volume) => volume.encryptionKnown && volume.encryption === null && /^[A-Za-z]:$/.test(volume.id),
    );
    if (model.encryptionUnknown !== null || off === undefined) {
      action = { kind: 'unknown', mountPoint };
      findings.push(
        info(
          'bitlocker-existing',
          'Whether BitLocker is already on is unknown (neither manage-bde -status nor Get-BitLockerVolume answered, which needs an administrator): run manage-bde -status as administrator, then assess again; no command assumes BitLocker is off.',
          reasons,
        ),
      );
    } else {
      action = { kind: 'enable', mountPoint: off.id, osVolume: off.id === 'C:' };
    }
  }
  return {
    action,
    method,
    recommendations: [
      {
        ruleId: 'bitlocker-method',
        value: method === 'xts_aes256' ? 'XTS-AES 256 (software)' : 'XTS-AES 128 (software)',
        reason:
          method === 'xts_aes256'
            ? 'XTS-AES 256 in software: Windows defaults to XTS-AES 128; AES-256 adds 4 rounds (14 against 10, FIPS 197) that the CPU’s AES instructions absorb. Software BitLocker costs a fast NVMe SSD 21 % in PCMark 10 and up to 45 % in random writes (Tom’s Hardware, 2023-10-19, Samsung 990 Pro). Never the drive’s own encryption: Meijer and van Gastel (2018) broke it on several SSDs, and Microsoft made software the default (ADV180028, KB4516071).'
            : 'XTS-AES 128 in software (speed over security asked for): Windows’ own default. Never the drive’s own encryption (Meijer and van Gastel 2018; Microsoft ADV180028, KB4516071).',
        evidence: reasons,
        confidence: 'high',
      },
    ],
    findings,
  };
}

/**
 * The plan of the BitLocker target on Windows: `bitlocker-method` and the existing volume's state, `windows-trim`,
 * and manage-bde commands (with fsutil when TRIM is off); nothing to do when BitLocker already protects.
 */
export const bitlockerWin32Plan: PlatformPlanHook = (input, kit) => {
  const bitlocker = recommendBitLocker(input.storage, input.options, input.encrypts);
  const trim = kit.windowsTrim();
  const { action, method } = bitlocker;
  return {
    results: [bitlocker, trim],
    commands: [...bitlockerCommands(action, method), ...(trim.enableTrim ? [enableTrimCommand()] : [])],
    // XTS key bits, as for dm-crypt (two AES keys): XTS-AES 256 = 512.
    keySizeBits: method === 'xts_aes256' ? 512 : 256,
    allowDiscards: true,
    veracrypt: null,
    alreadyEncrypted:
      action.kind === 'nothing'
        ? {
            path: action.mountPoint,
            format: 'bitlocker',
            reason:
              bitlocker.findings.find((entry) => entry.ruleId === 'bitlocker-existing')?.message ??
              'Already encrypted.',
          }
        : null,
  };
};
