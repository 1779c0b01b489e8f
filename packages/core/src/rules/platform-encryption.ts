import { evidence, type Evidence, type Finding, type Recommendation } from '../domain/recommendation.js';
import {
  benchmarkOf,
  defaultTargetFor,
  isEncryptedVolumeOf,
  planSettingsOf,
  type PlanTargetId,
} from '../targets/registry.js';
import type { IoBenchmark } from '../domain/io-benchmark.js';
import type { MacosAction } from '../targets/apfs/commands.js';
import type { BitLockerAction, BitLockerMethod } from '../targets/bitlocker/commands.js';
import { sourceOf } from '../domain/source.js';
import type { DeepPartial } from './facts.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import type { RuleResult } from './rule-result.js';
import type { EncryptionState, StorageModel, StorageVolume } from '../domain/storage-model.js';

/** The finding of an existing encryption that does not protect yet (protection off or suspended, mid-conversion). */
export const ENCRYPTION_UNFINISHED = 'encryption-unfinished';

/**
 * Plan rules for macOS and Windows, from the storage model alone (domain/storage-model.ts; the deprecated
 * `platformStorage` of older documents reaches them only through the model builder). What stays per platform is
 * the platform's tools (diskutil, fdesetup, trimforce; manage-bde, fsutil). Pure; every claim cites its vendor's
 * document or the paper it comes from.
 */

const platformSource = (origin: string | undefined | null, field: string) =>
  sourceOf(origin ?? 'not measured', field);

function diskEvidence(storage: StorageModel): Evidence[] {
  const source = storage.disk.source;
  return [
    evidence('disk.identifier', storage.disk.id, platformSource(source, 'identifier')),
    evidence('disk.internal', storage.disk.internal ?? null, platformSource(source, 'internal')),
    evidence('disk.medium', storage.disk.medium, platformSource(source, 'medium')),
  ];
}

function volumeEvidence(volume: StorageVolume, state: EncryptionState): Evidence[] {
  const source = platformSource(state.source, volume.id);
  return [
    evidence('volume', volume.id, source),
    evidence('encryption.kind', state.kind, source),
    evidence('encryption.cipher', state.cipher, source),
    evidence('encryption.keyBits', state.keyBits, source),
    evidence('encryption.hardware', state.hardware, source),
    evidence('encryption.protection', state.protection, source),
    evidence('encryption.conversion', state.conversion, source),
    evidence('encryption.percentEncrypted', state.percentEncrypted, source),
  ];
}

const info = (ruleId: string, message: string, reasons: Evidence[]): Finding => ({
  ruleId,
  severity: 'info',
  message,
  evidence: reasons,
});

// ---------------------------------------------------------------------------------------------- macOS

/** APFS roles of the startup disk's volumes (diskutil apfs list: "System", "Data"). */
const STARTUP_ROLES = ['System', 'Data'];

function isStartupDisk(storage: StorageModel): boolean {
  return (
    storage.volumes.some(
      (volume) =>
        volume.encryption?.kind === 'filevault' ||
        (volume.roles ?? []).some((role) => STARTUP_ROLES.includes(role)),
    ) || storage.disk.internal === true
  );
}

/**
 * Apple silicon: sysctl says so, or the internal disk holds the iBoot System Container partition
 * (Apple_APFS_ISC), which only Macs with Apple silicon have (Apple Platform Security guide, "Boot process for a
 * Mac with Apple silicon"); sysctl is not always in a bundle.
 */
function appleSiliconOf(storage: StorageModel): boolean {
  return (
    storage.cpu?.appleSilicon === true ||
    storage.partitions.some((partition) => partition.type === 'Apple_APFS_ISC')
  );
}

/** "disk3s1" → "disk3": the APFS container an APFS volume lives in (diskutil identifiers). */
function containerOf(volume: string | undefined): string | null {
  const match = /^(disk\d+)s\d+$/.exec(volume ?? '');
  return match?.[1] ?? null;
}

/** The lowest encrypted ÷ plain throughput per direction of the APFS disk-image benchmark, or null per direction. */
function measuredApfsRatios(
  benchmark: DeepPartial<IoBenchmark> | null | undefined,
): { readonly read: number | null; readonly write: number | null; readonly labels: string[] } | null {
  const rows = (benchmark?.overhead ?? []).filter(
    (row) =>
      row?.backend !== undefined &&
      benchmarkOf(row.backend)?.container === 'apfs-image' &&
      typeof row.throughputRatio === 'number',
  );
  if (rows.length === 0) {
    return null;
  }
  const lowest = (direction: 'read' | 'write') => {
    const ratios = rows.flatMap((row) =>
      row?.direction === direction ? [row.throughputRatio as number] : [],
    );
    return ratios.length === 0 ? null : Math.min(...ratios);
  };
  const labels = [...new Set(rows.map((row) => row?.profileLabel ?? row?.profileId ?? ''))];
  return { read: lowest('read'), write: lowest('write'), labels };
}

const percentOf = (ratio: number | null) =>
  ratio === null ? 'not measured' : `${Math.round(ratio * 100)} %`;

/**
 * `macos-encryption`: FileVault (`fdesetup enable`) for the startup disk; for another drive, the unencrypted
 * APFS volume encrypted in place (`diskutil apfs encryptVolume`) or a new encrypted volume
 * (`diskutil apfs addVolume … -passprompt`); nothing when the volume already is encrypted (diskutil(8), fdesetup(8)).
 * The cost: on Apple silicon and T2 Macs the internal SSD is always encrypted by the storage controller's AES
 * engine, and FileVault only protects that key with the user's password (Apple Platform Security guide,
 * "Volume encryption with FileVault in macOS"): no measurable cost. Elsewhere APFS encrypts in software on the CPU.
 */
export function recommendMacosEncryption(
  storage: StorageModel,
  benchmark: DeepPartial<IoBenchmark> | null = null,
): RuleResult & { readonly action: MacosAction } {
  const startup = isStartupDisk(storage);
  const encrypted = storage.volumes.find((volume) =>
    isEncryptedVolumeOf(defaultTargetFor('darwin'), volume.encryption?.kind),
  );
  // An APFS volume diskutil read with no encryption (an unknown volume is never counted as unencrypted).
  const unencrypted = storage.volumes.find((volume) => volume.encryption === null && volume.encryptionKnown);
  const fileVault = storage.fileVault ?? null;
  const reasons = [
    ...diskEvidence(storage),
    evidence('fileVault', fileVault, sourceOf('fdesetup', 'status')),
    ...(encrypted?.encryption === null || encrypted?.encryption === undefined
      ? []
      : volumeEvidence(encrypted, encrypted.encryption)),
  ];
  const findings: Finding[] = [];
  let action: MacosAction;
  let value: string;
  let reason: string;
  // FileVault covers the startup volume only (fdesetup(8)): "FileVault is On." says nothing of an external drive.
  const fileVaultHere = startup && (fileVault === 'on' || fileVault === 'encrypting');
  if (fileVaultHere || encrypted !== undefined) {
    const volume = encrypted?.id ?? storage.disk.id;
    action = { kind: 'nothing', volume };
    value = 'already encrypted';
    reason = `${encrypted !== undefined && encrypted.encryption?.kind !== 'filevault' ? 'APFS encryption' : 'FileVault'} already protects ${volume}${fileVault === 'encrypting' ? ' (still encrypting)' : ''}: nothing to change; fdesetup status shows its progress.`;
    findings.push(info('macos-encryption', reason, reasons));
  } else if (startup && fileVault !== 'off' && unencrypted === undefined) {
    action = { kind: 'unknown' };
    value = 'FileVault (state unknown)';
    reason =
      'The startup disk wants FileVault, but whether it is already on is unknown (no fdesetup status or diskutil volume facts): run fdesetup status, then assess again; no command assumes it is off.';
    findings.push(info('macos-encryption', reason, reasons));
  } else if (
    !startup &&
    unencrypted === undefined &&
    storage.volumes.length === 0 &&
    storage.encryptionUnknown !== null
  ) {
    // No tool read the drive's volumes: an empty list is unknown, not "no encryption" (issue 13).
    action = { kind: 'unknown' };
    value = 'encryption state unknown';
    reason = `${storage.encryptionUnknown} Run diskutil apfs list, then assess again; no command assumes this drive is unencrypted.`;
    findings.push(info('macos-encryption', reason, reasons));
  } else if (startup) {
    action = { kind: 'filevault' };
    value = 'FileVault';
    reason =
      'The startup disk is encrypted with FileVault (fdesetup enable): it asks for an administrator’s password at the prompt and prints a personal recovery key to store away from the Mac.';
  } else if (unencrypted !== undefined) {
    action = { kind: 'encrypt-volume', volume: unencrypted.id };
    value = 'APFS encryption in place';
    reason = `The APFS volume ${unencrypted.id} is encrypted in place (diskutil apfs encryptVolume), its data kept; diskutil asks for the new passphrase at the prompt.`;
  } else {
    const container = containerOf(storage.partitions.find((part) => part.type === 'Apple_APFS')?.id) ?? null;
    action = { kind: 'new-volume', container };
    value = 'new encrypted APFS volume';
    reason =
      'A new encrypted APFS volume is added to the drive’s APFS container (diskutil apfs addVolume … -passprompt); diskutil asks for the passphrase at the prompt.';
  }
  const appleSilicon = appleSiliconOf(storage);
  const hardwareKeys =
    appleSilicon || (startup && storage.volumes.some((volume) => volume.encryption?.hardware === true));
  const controller = hardwareKeys && startup;
  // An encrypted disk image (assess --benchmark) runs the disk-image driver's AES on the CPU over a file on
  // this drive: what software encryption costs here, an upper bound of encrypting the volume itself.
  const measured = measuredApfsRatios(benchmark);
  const measuredText =
    measured === null
      ? null
      : `Measured here (${measured.labels.join(', ')}): an AES-256 encrypted APFS disk image read at ${percentOf(measured.read)} and wrote at ${percentOf(measured.write)} of a plain one’s speed (lowest profile).`;
  const cost: Recommendation = {
    ruleId: 'macos-encryption-cost',
    value: controller ? 'no measurable cost' : 'measured cost',
    reason: controller
      ? `The internal SSD of this Mac is always encrypted by its storage controller’s AES engine; FileVault only wraps that key with your password (Apple Platform Security guide, "Volume encryption with FileVault in macOS"), so turning it on costs no measurable speed.${measuredText === null ? '' : ` ${measuredText} That is the disk-image driver encrypting in software on the CPU, an upper bound that FileVault on this SSD does not pay.`}`
      : measuredText === null
        ? 'This drive is encrypted by APFS in software on the CPU (no storage-controller AES engine in its path): expect a measurable cost, largest for writes (an external Thunderbolt 5 SSD wrote 5.3 → 4.7 GB/s encrypted, reads 2–5 % slower: Eclectic Light Company, 2025); measure it on a scratch volume.'
        : `This drive is encrypted by APFS in software on the CPU (no storage-controller AES engine in its path). ${measuredText} A disk image adds its own layer, so this is an upper bound of encrypting the volume itself (an external Thunderbolt 5 SSD lost 11 % of its write speed to APFS encryption: Eclectic Light Company, 2025).`,
    evidence: [
      ...(measured === null
        ? []
        : [
            evidence('apfs image read ÷ plain', measured.read, sourceOf('fio', 'ioBenchmark.overhead')),
            evidence('apfs image write ÷ plain', measured.write, sourceOf('fio', 'ioBenchmark.overhead')),
          ]),
      evidence(
        'Apple silicon',
        appleSilicon,
        platformSource(storage.cpu?.source ?? storage.disk.source, 'appleSilicon, Apple_APFS_ISC'),
      ),
      evidence('cpu.aes', storage.cpu?.aes ?? null, platformSource(storage.cpu?.source, 'aes')),
      ...diskEvidence(storage),
    ],
    confidence:
      measured !== null || appleSilicon || (storage.cpu !== null && storage.cpu?.source !== null)
        ? 'high'
        : 'medium',
  };
  return {
    action,
    recommendations: [
      { ruleId: 'macos-encryption', value, reason, evidence: reasons, confidence: 'high' },
      cost,
    ],
    findings,
  };
}

/** What `macos-trim` cites and says: the same for every Mac, only whether it acts differs. */
const MACOS_TRIM = {
  ruleId: 'macos-trim',
  fields: ['TRIM Support', 'TRIM Support'],
  actionReason:
    'The drive supports TRIM but macOS does not send it (third-party SSD): `trimforce enable` turns it on for all such drives; Apple warns that a drive which mishandles TRIM may lose data, and the Mac restarts (trimforce(8)).',
  passesReason:
    'macOS sends TRIM to this drive, and APFS keeps sending it under FileVault and APFS encryption.',
  unknownReason:
    'Whether macOS sends TRIM to this drive is unknown (system_profiler "TRIM Support" not read).',
} as const;

/**
 * `macos-trim`: APFS issues TRIM for freed blocks itself, encrypted or not, so FileVault and APFS encryption keep
 * TRIM. macOS trims third-party SSDs only after `trimforce enable`, which Apple warns may lose data on drives
 * that mishandle TRIM and which reboots the Mac (trimforce(8)).
 */
export function macosTrim(storage: StorageModel): RuleResult & { readonly trimforce: boolean } {
  const trim = storage.disk.trim ?? null;
  const trimforce = trim?.driveSupports === true && trim.osSends === false;
  return {
    trimforce,
    ...trimRule(storage, { ...MACOS_TRIM, action: trimforce ? 'trimforce enable' : null }),
  };
}

/** One TRIM recommendation: an action to take, "passes", or "unknown", with the platform's TRIM facts. */
function trimRule(
  storage: StorageModel,
  rule: {
    readonly ruleId: string;
    /** The fields of the platform tool the two facts come from (drive support, OS sends). */
    readonly fields: readonly [string, string];
    readonly action: string | null;
    readonly actionReason: string;
    readonly passesReason: string;
    readonly unknownReason: string;
  },
): RuleResult {
  const { driveSupports, osSends, source } = storage.disk.trim ?? {};
  return {
    recommendations: [
      {
        ruleId: rule.ruleId,
        value: rule.action ?? (osSends === true ? 'passes' : 'unknown'),
        reason:
          rule.action !== null
            ? rule.actionReason
            : osSends === true
              ? rule.passesReason
              : rule.unknownReason,
        evidence: [
          evidence('trim.driveSupports', driveSupports ?? null, platformSource(source, rule.fields[0])),
          evidence('trim.osSends', osSends ?? null, platformSource(source, rule.fields[1])),
        ],
        confidence: osSends === undefined || osSends === null ? 'low' : 'high',
      },
    ],
    findings: [],
  };
}

// -------------------------------------------------------------------------------------------- Windows

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
export function recommendBitLocker(
  model: StorageModel,
  options: ResolvedPlanOptions,
): RuleResult & { readonly action: BitLockerAction; readonly method: BitLockerMethod } {
  const method: BitLockerMethod = options.speedOverSecurity ? 'xts_aes128' : 'xts_aes256';
  const keyBits = method === 'xts_aes256' ? 256 : 128;
  const encrypted = model.volumes.filter((volume) =>
    isEncryptedVolumeOf(defaultTargetFor('win32'), volume.encryption?.kind),
  );
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
 * `windows-trim`: NTFS sends TRIM unless `DisableDeleteNotify` is 1 (Microsoft, "fsutil behavior"), and
 * BitLocker, which encrypts below NTFS, forwards it to the drive (no Microsoft page found states this in so many
 * words: the report says it, and `fsutil behavior query DisableDeleteNotify` on the machine is the check). VeraCrypt blocks TRIM on non-system volumes by default and passes it on
 * system encryption (VeraCrypt documentation, "Trim Operation").
 */
export function windowsTrim(
  storage: StorageModel,
  target: PlanTargetId,
): RuleResult & { readonly enableTrim: boolean } {
  const trim = storage.disk.trim ?? null;
  const enableTrim = trim?.osSends === false && trim.driveSupports !== false;
  const through = planSettingsOf(target).windowsTrim ?? '';
  return {
    enableTrim,
    ...trimRule(storage, {
      ruleId: 'windows-trim',
      fields: ['medium', 'DisableDeleteNotify'],
      action: enableTrim ? 'turn TRIM on' : null,
      actionReason: `Windows does not send TRIM (DisableDeleteNotify = 1): fsutil behavior set DisableDeleteNotify 0 turns it on. ${through}`,
      passesReason: `Windows sends TRIM (DisableDeleteNotify = 0). ${through}`,
      unknownReason: `Whether Windows sends TRIM is unknown (fsutil not read). ${through}`,
    }),
  };
}

/**
 * `veracrypt-windows-scope`: what VeraCrypt's Windows command line can do. `VeraCrypt Format.exe /create` makes
 * file containers only; partitions, drives and system encryption are made in the Volume Creation Wizard, and
 * system encryption (pre-boot authentication, Rescue Disk) has no command line at all (VeraCrypt documentation,
 * "Command Line Usage for Windows", "System Encryption").
 */
export function veracryptWindowsScope(storage: StorageModel): RuleResult {
  return {
    recommendations: [],
    findings: [
      info(
        'veracrypt-windows-scope',
        'VeraCrypt on Windows creates only file containers from the command line (VeraCrypt Format.exe /create). To encrypt a partition, a whole drive or the system drive, use the VeraCrypt Volume Creation Wizard with the settings above: system encryption cannot be done from the command line.',
        diskEvidence(storage),
      ),
    ],
  };
}
