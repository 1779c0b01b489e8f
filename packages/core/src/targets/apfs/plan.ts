import { evidence, type Finding, type Recommendation } from '../../domain/recommendation.js';
import { sourceOf } from '../../domain/source.js';
import type { StorageModel } from '../../domain/storage-model.js';
import { diskEvidence, infoFinding as info, platformSource, volumeEvidence } from '../platform-evidence.js';
import type { PlatformPlanHook, PlatformPlanInput, TargetRuleResult } from '../target.js';
import { darwinCommands, type MacosAction } from './commands.js';

/**
 * The APFS/FileVault target's plan on macOS, from the storage model alone (domain/storage-model.ts): FileVault or
 * APFS volume encryption, its cost on this Mac, and diskutil/fdesetup commands. Pure; every claim cites Apple's
 * document or the measurement it comes from.
 */

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

/** The backend id of the APFS encrypted disk-image benchmark (targets/apfs/apfs.ts benchmark.backendId). */
const APFS_BACKEND = 'apfs';

/** The lowest encrypted ÷ plain throughput per direction of the APFS disk-image benchmark, or null per direction. */
function measuredApfsRatios(
  benchmark: PlatformPlanInput['ioBenchmark'] | undefined,
): { readonly read: number | null; readonly write: number | null; readonly labels: string[] } | null {
  const rows = (benchmark?.overhead ?? []).filter(
    (row) =>
      row?.backend !== undefined && row.backend === APFS_BACKEND && typeof row.throughputRatio === 'number',
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
  benchmark: PlatformPlanInput['ioBenchmark'],
  encrypts: PlatformPlanInput['encrypts'],
): TargetRuleResult & { readonly action: MacosAction } {
  const startup = isStartupDisk(storage);
  const encrypted = storage.volumes.find((volume) => encrypts(volume.encryption?.kind));
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

/**
 * The plan of the APFS target on macOS: the encryption decision, `macos-trim`, and diskutil/fdesetup commands;
 * nothing to do when a volume already encrypts.
 */
export const apfsDarwinPlan: PlatformPlanHook = (input, kit) => {
  const encryption = recommendMacosEncryption(input.storage, input.ioBenchmark, input.encrypts);
  const trim = kit.macosTrim();
  return {
    results: [encryption, trim],
    commands: darwinCommands(encryption.action, input.options.label, trim.trimforce),
    keySizeBits: null,
    allowDiscards: true,
    veracrypt: null,
    alreadyEncrypted:
      encryption.action.kind === 'nothing'
        ? {
            path: encryption.action.volume,
            format: 'apfs',
            reason:
              encryption.recommendations.find((entry) => entry.ruleId === 'macos-encryption')?.reason ??
              'Already encrypted.',
          }
        : null,
  };
};
