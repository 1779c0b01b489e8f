import { z } from 'zod';
import { benchmarkOf, planSettingsOf, recogniseLuks2Segment } from '../targets/registry.js';
import {
  evidence,
  scalarSchema,
  type Evidence,
  type Recommendation,
  type Scalar,
} from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes, MIB } from '../domain/units.js';
import type { HealthGate } from './health-gate.js';
import type { Luks2Pbkdf } from './key-derivation.js';
import type { ResolvedPlanOptions, TargetTool } from './plan-options.js';
import {
  existingEncryptionOf,
  healthSourceOf,
  plansForLinux,
  rotationalOf,
  type DeepPartial,
  type PlanFacts,
} from './facts.js';
import type { RuleResult } from './rule-result.js';
import type { Filesystem } from '../domain/device.js';

/**
 * How the plan gets the disk encrypted. `fresh-format`: nothing to keep (or a backup is restored afterwards);
 * `in-place`: LUKS2 `cryptsetup reencrypt --encrypt` keeps the data; `reinstall`: a system disk whose
 * filesystem cannot make room for the header; `nothing-to-do`: already encrypted (what differs is listed);
 * `undetermined`: the assessment does not say what is on the disk; `replace-first` (plan 1.x, issue 24): the drive
 * is failing, so back up and replace it; nothing is rewritten on it, under any flag.
 */
const strategyKindSchema = z.enum([
  'fresh-format',
  'in-place',
  'reinstall',
  'nothing-to-do',
  'undetermined',
  'replace-first',
]);

/** One condition the strategy needs; `confirm` is one only the user can check (a backup). */
const strategyPreconditionSchema = z.object({
  /** Stable kebab-case id: "backup", "free-space", "health-gate", "filesystem-type", "unmounted", "sector-size". */
  id: z.string(),
  status: z.enum(['met', 'not-met', 'unknown', 'confirm']),
  detail: z.string(),
});
export type StrategyPrecondition = z.infer<typeof strategyPreconditionSchema>;

/** The strategy: the plan's first decision. */
export const strategySchema = z.object({
  kind: strategyKindSchema,
  reason: z.string(),
  /** The block device the strategy acts on (the filesystem to encrypt in place, the volume found), or null. */
  target: z
    .object({
      path: z.string(),
      filesystemType: z.string().nullable(),
      sizeBytes: z.number().int().nullable(),
      mountpoints: z.array(z.string()),
    })
    .nullable(),
  /** True when the commands must run from a live/rescue system (the target holds the running root filesystem). */
  offline: z.boolean(),
  preconditions: z.array(strategyPreconditionSchema),
  /** What the user does around the commands (boot a live system, chroot, initramfs), in order. */
  steps: z.array(z.string()),
  /** Bytes the in-place path takes from the end of the filesystem for the LUKS2 header (--reduce-device-size). */
  reductionBytes: z.number().int().nullable(),
  /** Writes the strategy costs the drive, and their share of its rated endurance (null = unknown). */
  driveWrites: z.object({
    bytes: z.number().int().nullable(),
    percentOfRatedEndurance: z.number().nullable(),
    basis: z.string(),
  }),
  /** How long it takes, from measured speed only (null = unmeasured). */
  timeEstimate: z.object({ seconds: z.number().nullable(), basis: z.string() }),
  /** For `nothing-to-do`: each setting of the existing volume that differs from the plan. */
  differences: z.array(z.object({ setting: z.string(), current: scalarSchema, planned: scalarSchema })),
});
/** See {@link strategySchema}. */
export type Strategy = z.infer<typeof strategySchema>;

/**
 * --reduce-device-size for in-place encryption: 32 MiB. cryptsetup-reencrypt(8) (2.6.1), --reduce-device-size:
 * "Recommended minimal size is twice the default LUKS2 header size (--reduce-device-size 32M) for encryption
 * mode"; the default LUKS2 header (metadata + keyslots area) is 16 MiB (cryptsetup(8) --luks2-keyslots-size).
 */
export const IN_PLACE_REDUCTION_BYTES = 32 * MIB;
/**
 * Where the data start after `reencrypt --encrypt --reduce-device-size`: half the reduction, after the 16 MiB
 * header. Measured with cryptsetup 2.6.1 (luksDump --dump-json-metadata: segment offset 16777216 after
 * --reduce-device-size 32M); tests/integration/plan-in-place.integration.test.ts checks it on every run.
 */
export const IN_PLACE_DATA_OFFSET_BYTES = IN_PLACE_REDUCTION_BYTES / 2;

/** The plan's settings the strategy compares an existing volume with and estimates time from. */
export interface PlannedSettings {
  readonly targetTool: TargetTool;
  readonly cipherSpec: string;
  readonly keyBits: number;
  readonly sectorSizeBytes: number | null;
  readonly luks2Pbkdf: Luks2Pbkdf | null;
  readonly allowDiscards: boolean;
  readonly workqueueBypass: boolean;
  /** One-core encrypt speed of the planned cipher (bytes/s), measured or derived; null when unknown. */
  readonly cipherEncryptBytesPerSecond: number | null;
}

/** How a filesystem makes room for the header at its end. */
type Shrink = 'offline' | 'online' | 'impossible' | 'unknown';

/**
 * resize2fs(8) (e2fsprogs 1.47): it "can be used to enlarge or shrink an unmounted file system"; mounted, only
 * expand. btrfs-filesystem(8) "resize": a mounted btrfs grows or shrinks online. XFS: xfs_growfs(8) "expands an
 * existing XFS filesystem" ("-D": "Only shrinking the last AG without removing it is implemented"); Red Hat,
 * RHEL 8 "Managing file systems", ch. 13: "It is not currently possible to reduce the size of XFS file systems".
 */
const SHRINK: Readonly<Record<string, Shrink>> = {
  ext2: 'offline',
  ext3: 'offline',
  ext4: 'offline',
  btrfs: 'online',
  xfs: 'impossible',
};

/** blkid TYPEs that are not data filesystems to encrypt in place. */
const NOT_DATA = new Set(['crypto_LUKS', 'BitLocker', 'swap', 'LVM2_member', 'linux_raid_member', 'vfat']);
/** Mounts of the boot chain, which stay unencrypted. */
const BOOT_MOUNTS = new Set(['/boot', '/boot/efi', '/efi']);

/** A block device of the disk that holds (or may hold) data. */
interface Candidate {
  readonly path: string;
  readonly filesystem: DeepPartial<Filesystem> | null;
  readonly sizeBytes: number | null;
  readonly mountpoints: readonly string[];
}

/** Partitions (or the whole disk, without a partition table) that hold a filesystem or are mounted. */
function dataCandidates(facts: PlanFacts): Candidate[] {
  const fromPartitions = (facts.partitions ?? []).flatMap((partition): Candidate[] => {
    const mountpoints = (partition.mountpoints ?? []).filter((m): m is string => typeof m === 'string');
    if (
      partition.path === undefined ||
      ((partition.filesystem ?? null) === null && mountpoints.length === 0)
    ) {
      return [];
    }
    return [
      {
        path: partition.path,
        filesystem: partition.filesystem ?? null,
        sizeBytes: partition.sizeBytes ?? null,
        mountpoints,
      },
    ];
  });
  if (fromPartitions.length > 0 || (facts.partitions ?? []).length > 0) {
    return fromPartitions;
  }
  // No partitions: the whole disk may hold a filesystem (lsblk's stack root, mounted or with a signature).
  const root = facts.stack;
  const mountpoints = (root?.mountpoints ?? facts.disk?.mountpoints ?? []).filter(
    (m): m is string => typeof m === 'string',
  );
  if (facts.disk?.path === undefined || ((root?.filesystem ?? null) === null && mountpoints.length === 0)) {
    return [];
  }
  return [
    {
      path: facts.disk.path,
      filesystem: root?.filesystem ?? null,
      sizeBytes: facts.disk.sizeBytes ?? null,
      mountpoints,
    },
  ];
}

/** The data filesystems other than `path` ("/dev/sda2 (ext4), …"; not the boot chain), or null when none. */
function dataOutside(candidates: readonly Candidate[], path: string): string | null {
  const others = candidates.filter(
    (c) =>
      c.path !== path &&
      !NOT_DATA.has(c.filesystem?.type ?? '') &&
      !c.mountpoints.some((mountpoint) => BOOT_MOUNTS.has(mountpoint)),
  );
  return others.length === 0
    ? null
    : others.map((c) => `${c.path} (${c.filesystem?.type ?? 'unknown'})`).join(', ');
}

/** The filesystem to encrypt in place: the root filesystem if it is here, else the largest data filesystem. */
function pickTarget(candidates: readonly Candidate[]): Candidate | null {
  const data = candidates.filter(
    (candidate) =>
      !NOT_DATA.has(candidate.filesystem?.type ?? '') &&
      !candidate.mountpoints.some((mountpoint) => BOOT_MOUNTS.has(mountpoint)),
  );
  const root = data.find((candidate) => candidate.mountpoints.includes('/'));
  if (root !== undefined) {
    return root;
  }
  return [...data].sort((a, b) => (b.sizeBytes ?? 0) - (a.sizeBytes ?? 0))[0] ?? null;
}

/**
 * The drive's rated endurance in bytes written, estimated from wear and bytes written (NVMe "Percentage Used"
 * is the share of the rated endurance used: NVM Express Base Specification 2.0, SMART / Health Information log).
 */
function estimatedRatedEnduranceBytes(facts: PlanFacts): number | null {
  const written = facts.health?.dataWrittenBytes ?? null;
  const used = facts.health?.percentageUsed ?? null;
  return written !== null && used !== null && used > 0 ? (written * 100) / used : null;
}

function driveWritesOf(facts: PlanFacts, bytes: number | null, what: string): Strategy['driveWrites'] {
  if (bytes === null) {
    return { bytes, percentOfRatedEndurance: null, basis: `${what}; the amount is unknown.` };
  }
  if (bytes === 0) {
    return { bytes, percentOfRatedEndurance: 0, basis: `${what}.` };
  }
  if (rotationalOf(facts) === true) {
    return {
      bytes,
      percentOfRatedEndurance: null,
      basis: `${what}; a spinning disk has no write-endurance rating.`,
    };
  }
  const rated = estimatedRatedEnduranceBytes(facts);
  if (rated === null) {
    return {
      bytes,
      percentOfRatedEndurance: null,
      basis: `${what}; the share of the rated endurance is unknown (no wear and bytes-written counters from SMART).`,
    };
  }
  // Two significant digits: a header write is a tiny share, a full rewrite a visible one.
  const percent = Number(((bytes / rated) * 100).toPrecision(2));
  return {
    bytes,
    percentOfRatedEndurance: percent,
    basis: `${what}: ${String(percent)} % of the endurance of ${formatBytes(rated)} estimated from wear and bytes written.`,
  };
}

/** The median of a standard profile measured on the plain target, or on the first LUKS2 variant. */
function measuredBytesPerSecond(facts: PlanFacts, id: string, backend: 'plain' | 'dm-crypt'): number | null {
  const targets =
    backend === 'plain'
      ? [facts.ioBenchmark?.plain]
      : (facts.ioBenchmark?.encrypted ?? []).filter(
          (target) =>
            target?.backend !== undefined && benchmarkOf(target.backend)?.container === 'dm-crypt-file',
        );
  for (const target of targets) {
    const profile = (target?.profiles ?? []).find((candidate) => candidate?.profile?.id === id);
    const value = profile?.summary?.medianBytesPerSecond;
    if (value !== undefined && value > 0) {
      return value;
    }
  }
  return null;
}

/** The sequential profiles a time estimate reads, queue depth 1 first (reencrypt's pattern), else queued. */
const SEQUENTIAL_PROFILES = [
  { id: 'seq1m-q1t1', label: 'SEQ1M Q1T1' },
  { id: 'seq1m-q8t1', label: 'SEQ1M Q8T1' },
] as const;

/**
 * The measured sequential rate in one direction: SEQ1M Q1T1, else SEQ1M Q8T1 (a quick benchmark may measure only
 * the queued one; it is at least as fast, so a time from it stays a lower bound). Null when neither was measured.
 */
function sequentialRate(
  facts: PlanFacts,
  direction: 'read' | 'write',
  backend: 'plain' | 'dm-crypt',
): { readonly bytesPerSecond: number; readonly label: string } | null {
  for (const profile of SEQUENTIAL_PROFILES) {
    const value = measuredBytesPerSecond(facts, `${profile.id}-${direction}`, backend);
    if (value !== null) {
      return { bytesPerSecond: value, label: profile.label };
    }
  }
  return null;
}

/** Why a time is unmeasured: no benchmark ran, or it ran without the sequential profiles the time needs. */
function unmeasuredSequential(facts: PlanFacts): string {
  return (facts.ioBenchmark?.plain?.profiles ?? []).length === 0
    ? 'no sequential read and write speed of this disk in the assessment (run encplan assess --benchmark)'
    : 'the benchmark measured no sequential (SEQ1M) read and write of this disk';
}

/**
 * In-place time from measured speed: reencrypt reads every block and writes it back encrypted, one hotzone at a
 * time (cryptsetup-reencrypt(8) --hotzone-size), so queue-depth-1 sequential reads and writes bound it; the
 * cipher's one-core speed is added when no encrypted write was measured.
 */
function inPlaceTime(
  facts: PlanFacts,
  bytes: number | null,
  planned: PlannedSettings,
): Strategy['timeEstimate'] {
  const read = sequentialRate(facts, 'read', 'plain');
  const encryptedWrite = sequentialRate(facts, 'write', 'dm-crypt');
  const write = encryptedWrite ?? sequentialRate(facts, 'write', 'plain');
  if (bytes === null || read === null || write === null) {
    return { seconds: null, basis: `Unmeasured: ${unmeasuredSequential(facts)}.` };
  }
  const cipher = encryptedWrite === null ? planned.cipherEncryptBytesPerSecond : null;
  const seconds =
    bytes / read.bytesPerSecond + bytes / write.bytesPerSecond + (cipher === null ? 0 : bytes / cipher);
  const parts = [
    `Read ${formatBytes(bytes)} at the measured ${formatBytes(read.bytesPerSecond)}/s (${read.label}, plain)`,
    `write it at ${formatBytes(write.bytesPerSecond)}/s (${write.label}, ${encryptedWrite === null ? 'plain' : 'LUKS2'})`,
    ...(cipher === null ? [] : [`encrypt it at ${formatBytes(cipher)}/s on one core`]),
  ];
  const noCipher =
    encryptedWrite === null && cipher === null ? '; cipher speed unmeasured, not included' : '';
  // The duration is stated once, by `seconds` (the views print it before the basis): a basis that restated
  // the unrounded figure read "Time: 5.0 s. About 4.5 s: …". Tenths below a minute, as freshTime.
  return {
    seconds: seconds < 60 ? Math.round(seconds * 10) / 10 : Math.round(seconds),
    basis: `${parts.join(', ')}${noCipher}; a lower bound.`,
  };
}

/** Each setting of the existing LUKS volume that differs from the plan. */
function differencesFrom(facts: PlanFacts, planned: PlannedSettings): Strategy['differences'] {
  const found = facts.encryption?.found?.[0];
  if (found === undefined) {
    return [];
  }
  const rows: { setting: string; current: Scalar; planned: Scalar }[] = [];
  // A setting the assessment does not know (null) is not a difference.
  const compare = (setting: string, current: Scalar | undefined, wanted: Scalar): void => {
    if (current !== undefined && current !== null && current !== wanted) {
      rows.push({ setting, current, planned: wanted });
    }
  };
  compare('format', found.format, planned.targetTool);
  if (!planSettingsOf(planned.targetTool).dmCryptParameters) {
    return rows;
  }
  // A LUKS2 header on OPAL with no dm-crypt segment (cryptsetup --hw-opal-only) has no software cipher at all.
  const opal = recogniseLuks2Segment(found.opal?.segmentType)?.segment ?? null;
  compare(
    'cipher',
    opal?.softwareEncryption === false ? `none (${opal.label})` : found.cipher,
    planned.cipherSpec,
  );
  compare('keySizeBits', found.keyBits, planned.keyBits);
  if (planned.sectorSizeBytes !== null) {
    compare('sectorSizeBytes', found.sectorBytes, planned.sectorSizeBytes);
  }
  const pbkdf = planned.luks2Pbkdf;
  // The planned keyslot's KDF: argon2id, or pbkdf2 where GRUB must open the volume (rules/grub-boot.ts).
  const plannedKdf = pbkdf === null ? null : (pbkdf.kdf ?? 'argon2id');
  (found.pbkdf ?? []).forEach((slot) => {
    const name = `keyslot ${slot?.keyslot ?? '?'}`;
    compare(`${name} pbkdf`, slot?.type, plannedKdf);
    if (pbkdf !== null && plannedKdf === 'argon2id' && slot?.type === 'argon2id') {
      compare(`${name} memoryKiB`, slot.memoryKibibytes, pbkdf.memoryKiB);
    }
  });
  // Activation flags are dm-crypt's: a volume with no dm-crypt layer (--hw-opal-only, a linear mapping) has none.
  if (opal?.softwareEncryption === false) {
    return rows;
  }
  const flags = (found.flags ?? []).filter((flag): flag is string => typeof flag === 'string');
  compare('allow-discards', flags.includes('allow-discards'), planned.allowDiscards);
  compare(
    'no-read-workqueue, no-write-workqueue',
    flags.includes('no-read-workqueue') && flags.includes('no-write-workqueue'),
    planned.workqueueBypass,
  );
  return rows;
}

function gatePrecondition(gate: HealthGate): StrategyPrecondition {
  const status = gate.status === 'proceed' ? 'met' : gate.status === 'caution' ? 'unknown' : 'not-met';
  return { id: 'health-gate', status, detail: gate.reason };
}

const BACKUP: StrategyPrecondition = {
  id: 'backup',
  status: 'confirm',
  detail:
    'A verified backup of the data. cryptsetup-reencrypt(8), --reduce-device-size: the last sectors of the device are lost; "This is a destructive operation and cannot be reverted. Use with extreme care - accidentally overwritten filesystems are usually unrecoverable." An interrupted run is recovered on the next open or by cryptsetup repair, but a failing drive can still lose data.',
};

/** The steps around the commands when the root filesystem is encrypted from a live/rescue system. */
function offlineSteps(target: Candidate, options: ResolvedPlanOptions, bootSeparate: boolean): string[] {
  return [
    'Boot a live or rescue system (the distribution installer image in "try" mode) with cryptsetup and e2fsprogs; the root filesystem must not be mounted.',
    `Run the commands below against ${target.path} from that system.`,
    `Open the volume (the luks-open command) and mount /dev/mapper/${options.mappingName} at /mnt; bind-mount /dev, /proc, /sys and chroot into /mnt.`,
    `In the chroot: add the crypttab-entry line, change the root entry of /etc/fstab to /dev/mapper/${options.mappingName}, and rebuild the initramfs with cryptsetup support (update-initramfs -u -k all on Debian/Ubuntu, dracut -f on Fedora).`,
    ...(bootSeparate
      ? []
      : [
          'The kernel lives on the encrypted root filesystem: GRUB must unlock it itself, and GRUB reads LUKS2 keyslots with PBKDF2 only (GNU GRUB manual, "cryptomount": "For LUKS2 only the PBKDF2 key derivation function is supported, as Argon2 is not yet supported"). Add a PBKDF2 keyslot (cryptsetup luksAddKey --pbkdf pbkdf2) and set GRUB_ENABLE_CRYPTODISK=y in /etc/default/grub, or move /boot to a partition of its own.',
        ]),
    'Update the boot loader (update-grub), leave the chroot, unmount, reboot and enter the passphrase at boot.',
  ];
}

function targetOf(candidate: Candidate | null): Strategy['target'] {
  return candidate === null
    ? null
    : {
        path: candidate.path,
        filesystemType: candidate.filesystem?.type ?? null,
        sizeBytes: candidate.sizeBytes,
        mountpoints: [...candidate.mountpoints],
      };
}

/** luksFormat: the header written at the measured sequential write speed, plus one key derivation. */
function freshTime(facts: PlanFacts, header: number, options: ResolvedPlanOptions): Strategy['timeEstimate'] {
  const write = sequentialRate(facts, 'write', 'plain');
  if (write === null) {
    return {
      seconds: null,
      basis: `Unmeasured write speed; luksFormat writes only the ${formatBytes(header)} header and derives the key once (planned unlock time ${String(options.unlockTimeMs)} ms).`,
    };
  }
  const seconds = header / write.bytesPerSecond + options.unlockTimeMs / 1000;
  return {
    seconds: Math.round(seconds * 10) / 10,
    basis: `The ${formatBytes(header)} header at the measured ${formatBytes(write.bytesPerSecond)}/s (${write.label}) plus one key derivation of the planned ${String(options.unlockTimeMs)} ms.`,
  };
}

const NO_TIME = { seconds: null, basis: 'No data are rewritten.' } as const;

/**
 * The strategy of a volume that is already encrypted: nothing is rewritten. `differences` lists the settings of
 * the existing volume that differ from the plan. Used for LUKS/TCRYPT here and for FileVault/APFS and BitLocker
 * by the platform plan.
 */
export function alreadyEncryptedStrategy(
  target: { readonly path: string; readonly format: string },
  reason: string,
  differences: Strategy['differences'] = [],
): Strategy {
  return {
    kind: 'nothing-to-do',
    reason,
    target: { path: target.path, filesystemType: target.format, sizeBytes: null, mountpoints: [] },
    offline: false,
    preconditions: [],
    steps: [],
    reductionBytes: null,
    differences,
    driveWrites: { bytes: 0, percentOfRatedEndurance: 0, basis: 'Nothing is rewritten.' },
    timeEstimate: NO_TIME,
  };
}

/**
 * `strategy`: the plan's first decision. Fresh format for an unused disk; in place (LUKS2 `cryptsetup reencrypt
 * --encrypt --reduce-device-size`, cryptsetup-reencrypt(8)) for a filesystem that can give up 32 MiB at its end,
 * from a live system when it is the running root; reinstall for a system disk whose filesystem cannot;
 * nothing to do when the disk is already encrypted (with what differs from the plan). Pure.
 */
export function decideStrategy(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  gate: HealthGate,
  planned: PlannedSettings,
): RuleResult & { readonly strategy: Strategy } {
  const candidates = dataCandidates(facts);
  const existing = existingEncryptionOf(facts);
  const target = pickTarget(candidates);
  const system = facts.disk?.isSystemDisk ?? null;
  const layoutSource = sourceOf('lsblk', 'partitions, fstype, mountpoints');
  const facts_: Evidence[] = [
    evidence('disk.partitionTable', facts.disk?.partitionTable ?? null, sourceOf('lsblk', 'pttype')),
    evidence('disk.isSystemDisk', system, sourceOf('lsblk', 'mountpoints')),
    evidence(
      'filesystems holding data',
      candidates.map((c) => `${c.path} ${c.filesystem?.type ?? 'unknown'}`).join(', ') || null,
      layoutSource,
    ),
    evidence(
      'existing encryption',
      facts.encryption?.found === undefined ? null : (existing?.kind ?? 'none'),
      sourceOf('cryptsetup', 'luksDump --dump-json-metadata'),
    ),
    evidence('health gate', gate.status, healthSourceOf(facts)),
  ];
  const strategy = decide(facts, options, gate, planned, candidates, target);
  const recommendation: Recommendation = {
    ruleId: 'strategy',
    value: strategy.kind,
    reason: strategy.reason,
    evidence:
      target === null
        ? facts_
        : [
            ...facts_,
            evidence(
              'in-place target',
              `${target.path} ${target.filesystem?.type ?? 'unknown'}`,
              layoutSource,
            ),
          ],
    confidence:
      strategy.kind === 'undetermined'
        ? 'low'
        : strategy.preconditions.some((p) => p.status === 'unknown')
          ? 'medium'
          : 'high',
  };
  // The health gate reports its own finding; the strategy adds only what else blocks its path.
  const blocked = strategy.preconditions.filter((p) => p.status === 'not-met' && p.id !== 'health-gate');
  const findings = [
    ...(blocked.length === 0
      ? []
      : [
          {
            ruleId: 'strategy',
            severity: 'warning' as const,
            message: `Before the ${strategy.kind} path: ${blocked.map((p) => p.detail).join(' ')}`,
            evidence: recommendation.evidence,
          },
        ]),
    ...opalTrustFindings(facts),
  ];
  return { recommendations: [recommendation], findings, strategy };
}

/**
 * `opal-trust`: an existing LUKS2 volume on an OPAL locking range says what protects its data, from its target's
 * recognition (targets/luks2-opal): a warning when the drive's firmware alone does (cryptsetup --hw-opal-only;
 * Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019), else that dm-crypt stays on top (--hw-opal).
 */
function opalTrustFindings(facts: PlanFacts): RuleResult['findings'] {
  const found = facts.encryption?.found?.[0];
  const opal = recogniseLuks2Segment(found?.opal?.segmentType)?.segment ?? null;
  if (found === undefined || opal === null) {
    return [];
  }
  return [
    {
      ruleId: 'opal-trust',
      severity: opal.softwareEncryption ? 'info' : 'warning',
      message: `${opal.label} on ${found.path ?? 'the disk'}: ${opal.note}`,
      evidence: [
        evidence(
          'LUKS2 data segment',
          found.opal?.segmentType ?? null,
          sourceOf('cryptsetup', 'luksDump --dump-json-metadata segments'),
        ),
      ],
    },
  ];
}

/**
 * The strategy of a failing drive (issue 24): back up and replace first. Nothing is written to it: no command,
 * and --destructive is refused (plan/consistency.ts). `existingKind` names encryption already on it.
 */
export function replaceFirstStrategy(gate: HealthGate, path: string, existingKind: string | null): Strategy {
  return {
    kind: 'replace-first',
    reason: `${gate.reason} encplan gives no command that writes to ${path}: encrypt the replacement drive instead (assess it once it is installed), then restore the backup onto it.${existingKind === null ? '' : ` ${path} is already encrypted (${existingKind}): copy the data from the opened volume.`}`,
    target: null,
    offline: false,
    preconditions: [BACKUP, gatePrecondition(gate)],
    steps: [],
    reductionBytes: null,
    driveWrites: {
      bytes: 0,
      percentOfRatedEndurance: null,
      basis: 'Nothing is written to the failing drive; the backup only reads it.',
    },
    timeEstimate: {
      seconds: null,
      basis: 'Unmeasured: the backup time depends on the data and on how the failing drive reads.',
    },
    differences: [],
  };
}

function decide(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  gate: HealthGate,
  planned: PlannedSettings,
  candidates: readonly Candidate[],
  target: Candidate | null,
): Strategy {
  const system = facts.disk?.isSystemDisk ?? null;
  const base = {
    target: targetOf(target),
    offline: false,
    steps: [] as string[],
    reductionBytes: null,
    differences: [] as Strategy['differences'],
  };
  if (facts.disk?.path === undefined) {
    return {
      ...base,
      kind: 'undetermined',
      reason:
        'The assessment names no disk, so what it holds is unknown: check that it is empty before any command that formats it.',
      preconditions: [BACKUP, gatePrecondition(gate)],
      driveWrites: driveWritesOf(facts, null, 'Unknown until the disk is known'),
      timeEstimate: { seconds: null, basis: 'Unmeasured: the assessment names no disk.' },
    };
  }
  const existing = existingEncryptionOf(facts);
  // A failing drive is not encrypted at all: every path rewrites data or sectors on it (in place, a restore,
  // a re-encryption), and a failure mid-way loses what it held (health gate). The backup comes off it first.
  if (gate.effectiveVerdict === 'failing') {
    return replaceFirstStrategy(gate, facts.disk.path, existing?.kind ?? null);
  }
  if (existing !== null) {
    const found = facts.encryption?.found?.[0];
    const differences = differencesFrom(facts, planned);
    const path = found?.path ?? facts.disk.path;
    const plain = dataOutside(candidates, path);
    const others =
      plain === null
        ? ''
        : ` Not encrypted beside it: ${plain}; plan that partition on its own to encrypt it in place.`;
    // LUKS2 on OPAL is named for what encrypts it; its target cannot reencrypt (cryptsetup 2.7.0 release notes).
    const opal = recogniseLuks2Segment(found?.opal?.segmentType);
    const kind = opal === null ? existing.kind : (opal.segment?.label ?? `${existing.kind} on OPAL`);
    const rewrite =
      opal?.target.settings?.inPlaceEncryption === false
        ? `only by backing up and formatting again (${opal.target.labels.short} cannot be reencrypted)`
        : 'only with a full cryptsetup reencrypt (one rewrite of the volume)';
    // --hw-opal-only opens as a linear mapping: no dm-crypt activation flags for cryptsetup refresh to change.
    const flags =
      opal?.segment?.softwareEncryption === false
        ? 'No dm-crypt layer, so no activation flags to change'
        : 'Flags change with cryptsetup refresh --persistent';
    return alreadyEncryptedStrategy(
      { path, format: found?.format ?? existing.kind },
      (differences.length === 0
        ? `${path} is already encrypted (${kind}) as planned.`
        : `${path} is already encrypted (${kind}); ${String(differences.length)} setting(s) differ from the plan: ${differences.map((d) => `${d.setting} ${String(d.current)} → ${String(d.planned)}`).join('; ')}. ${flags}; cipher, key size and sector size ${rewrite}; key derivation with cryptsetup luksConvertKey.`) +
        others,
      differences,
    );
  }
  // Without the stack (whole-disk signatures, mounts) or a partition list, an empty-looking disk is unknown.
  // So is a whole disk without a table whose signature probe did not answer "nothing" (blkid denied in a
  // sandbox, or failed): the space section then has no never-allocated whole-disk region (issue 25 item 6).
  const space = facts.space ?? null;
  const wholeDiskUnread =
    facts.disk.partitionTable === 'none' &&
    (facts.partitions ?? []).length === 0 &&
    space !== null &&
    (space.diskSizeBytes ?? 0) > 0 &&
    space.regions !== undefined &&
    !space.regions.some((region) => region.location === 'whole-disk');
  const layoutKnown = (facts.stack !== undefined || (facts.partitions ?? []).length > 0) && !wholeDiskUnread;
  if (candidates.length === 0 && !layoutKnown) {
    return {
      ...base,
      kind: 'undetermined',
      reason: `The assessment does not list what ${facts.disk.path} holds (no partitions, filesystems or mounts): check that it is empty before any command that formats it.`,
      preconditions: [BACKUP, gatePrecondition(gate)],
      driveWrites: driveWritesOf(facts, null, 'Unknown until the contents of the disk are known'),
      timeEstimate: { seconds: null, basis: 'Unmeasured: the contents of the disk are unknown.' },
    };
  }
  if (candidates.length === 0) {
    const header = 16 * MIB;
    return {
      ...base,
      kind: 'fresh-format',
      reason: `No partition of ${facts.disk.path} holds a filesystem or a mount, and no encryption was found: format it fresh.`,
      preconditions: [
        {
          id: 'unused',
          status: 'met',
          detail: 'blkid found no filesystem signature and nothing is mounted.',
        },
        gatePrecondition(gate),
      ],
      driveWrites: driveWritesOf(facts, header, 'luksFormat writes the 16 MiB LUKS2 header only'),
      timeEstimate: freshTime(facts, header, options),
    };
  }
  const type = target?.filesystem?.type ?? null;
  const shrink: Shrink = type === null ? 'unknown' : (SHRINK[type] ?? 'impossible');
  const targetSettings = planSettingsOf(planned.targetTool);
  const inPlaceTool = targetSettings.inPlaceEncryption && plansForLinux(facts);
  const isRoot = target?.mountpoints.includes('/') === true;
  if (target === null || !inPlaceTool || shrink === 'impossible' || shrink === 'unknown') {
    const why =
      target === null
        ? 'no partition holds a data filesystem encplan can encrypt in place'
        : !inPlaceTool
          ? (targetSettings.inPlaceRefusal ??
            `encplan plans in-place encryption for LUKS2 on Linux only (target ${planned.targetTool})`)
          : shrink === 'unknown'
            ? `the filesystem type of ${target.path} is unknown (blkid could not read it), so it cannot be shown to shrink by ${formatBytes(IN_PLACE_REDUCTION_BYTES)} for the header`
            : `${target.path} holds ${type ?? 'an unknown filesystem'}, which cannot shrink to make room for the LUKS2 header (xfs_growfs(8) only grows XFS)`;
    // A detached LUKS2 header keeps the data only where cryptsetup reencrypt can encrypt for this target at all.
    const detached = inPlaceTool
      ? ' (cryptsetup reencrypt --encrypt --header FILE would keep the data without shrinking, but the volume then cannot open without that separate header file).'
      : '.';
    if (system === true) {
      return {
        ...base,
        kind: 'reinstall',
        reason: `${facts.disk.path} is the system disk and ${why}: back up, reinstall with the installer's encrypted-disk option and restore the data${detached}`,
        offline: isRoot,
        preconditions: [
          BACKUP,
          gatePrecondition(gate),
          { id: 'filesystem-type', status: 'not-met', detail: why },
        ],
        driveWrites: driveWritesOf(facts, null, 'The reinstall writes the system and the restored data'),
        timeEstimate: {
          seconds: null,
          basis: 'Unmeasured: depends on the installer and the size of the restored data.',
        },
      };
    }
    return {
      ...base,
      kind: 'fresh-format',
      reason: `${facts.disk.path} holds data and ${why}: back up, format it fresh with the settings below and restore the data${detached}`,
      preconditions: [
        BACKUP,
        gatePrecondition(gate),
        { id: 'filesystem-type', status: 'not-met', detail: why },
      ],
      driveWrites: driveWritesOf(facts, null, 'The restore writes the backed-up data again'),
      timeEstimate: { seconds: null, basis: 'Unmeasured: depends on the size of the restored data.' },
    };
  }
  const size = target.sizeBytes;
  const available = target.filesystem?.availableBytes ?? null;
  const freeSpace: StrategyPrecondition =
    available === null
      ? {
          id: 'free-space',
          status: 'unknown',
          detail: `At least ${formatBytes(IN_PLACE_REDUCTION_BYTES)} free in the filesystem (twice the 16 MiB LUKS2 header, cryptsetup-reencrypt(8)); unknown for an unmounted filesystem: the shrink command refuses if the data do not fit.`,
        }
      : {
          id: 'free-space',
          status: available >= IN_PLACE_REDUCTION_BYTES ? 'met' : 'not-met',
          detail: `${formatBytes(available)} free, ${formatBytes(IN_PLACE_REDUCTION_BYTES)} needed for the header (twice the 16 MiB LUKS2 header, cryptsetup-reencrypt(8)).`,
        };
  const sector = planned.sectorSizeBytes ?? 512;
  const aligned = size !== null && size % sector === 0;
  const otherMounts = target.mountpoints.filter((m) => m !== '/');
  const bootSeparate = (facts.disk.mountpoints ?? []).includes('/boot');
  const preconditions: StrategyPrecondition[] = [
    BACKUP,
    gatePrecondition(gate),
    freeSpace,
    {
      id: 'filesystem-type',
      status: 'met',
      detail:
        shrink === 'offline'
          ? `${type ?? ''} shrinks while unmounted (resize2fs(8)).`
          : `${type ?? ''} shrinks while mounted (btrfs-filesystem(8) resize), then is unmounted for the encryption.`,
    },
    {
      id: 'unmounted',
      status: isRoot ? 'not-met' : otherMounts.length > 0 ? 'unknown' : 'met',
      detail: isRoot
        ? `${target.path} is the running root filesystem: encrypt it from a live/rescue system (steps below).`
        : otherMounts.length > 0
          ? `${target.path} is mounted at ${otherMounts.join(', ')}: stop what uses it; the commands unmount it first.`
          : `${target.path} is not mounted.`,
    },
    {
      id: 'sector-size',
      status: aligned ? 'unknown' : 'met',
      detail: aligned
        ? `The ${String(sector)}-byte encryption sector needs a filesystem block of at least ${String(sector)} bytes; check with dumpe2fs -h (Block size); cryptsetup reencrypt checks the ext4 superblock and refuses otherwise, after the shrink (cryptsetup 2.6.1: "Requested --sector-size ... is incompatible with ext4 superblock").`
        : `${target.path} is ${String(size)} bytes, not a multiple of the ${String(sector)}-byte sector: the in-place commands use 512-byte sectors ("Device size is not aligned to requested sector size").`,
    },
  ];
  const what = `Encrypting in place reads and rewrites ${target.path} once (${size === null ? 'size unknown' : formatBytes(size)})`;
  const others = dataOutside(candidates, target.path);
  const alsoData =
    others === null
      ? ''
      : ` Also holding data, not covered by these commands: ${others}; plan each on its own.`;
  return {
    ...base,
    kind: 'in-place',
    reason: `${target.path} holds ${type ?? ''} data${system === true ? ' on the system disk' : ''}: encrypt it in place with cryptsetup reencrypt --encrypt after shrinking the filesystem by ${formatBytes(IN_PLACE_REDUCTION_BYTES)} for the LUKS2 header${isRoot ? ', from a live/rescue system because it is the running root' : ''}. ${what}.${alsoData}`,
    offline: isRoot,
    steps: isRoot ? offlineSteps(target, options, bootSeparate) : [],
    reductionBytes: IN_PLACE_REDUCTION_BYTES,
    preconditions,
    driveWrites: driveWritesOf(facts, size, what),
    timeEstimate: inPlaceTime(facts, size, planned),
  };
}
