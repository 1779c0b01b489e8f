import { z } from 'zod';
import { capabilitySchema } from '../domain/capabilities.js';
import { machineSchema } from '../domain/cpu.js';
import { blockDeviceNameShape, diskSchema, partitionSchema, stackNodeSchema } from '../domain/device.js';
import { encryptionInventorySchema } from '../domain/encryption.js';
import { spaceSchema } from '../domain/space.js';
import { toolRecordSchema } from '../domain/tooling.js';
import { commandDocument, defineDocument } from './document.js';
import { errorBodySchema, statusSchema } from './envelope.js';
import { warningSchema } from '../domain/warning.js';
import { healthSchema, healthVerdictSchema } from '../domain/health.js';
import { planSchema } from '../plan/plan.js';
import { ioBenchmarkSchema } from '../domain/io-benchmark.js';
import { discardPassthroughSchema, trimSchema } from '../domain/trim.js';
import { sedSchema } from '../domain/sed.js';
import { overProvisioningSchema } from '../domain/over-provisioning.js';
import { cipherBenchmarkSchema, kernelCipherFindingSchema, kernelCryptoSchema } from '../domain/cipher.js';
import { platformStorageSchema } from '../domain/platform-storage.js';
import { storageModelSchema } from '../domain/storage-model.js';

/** Which disk was assessed and why that one. */
const targetSchema = z.object({
  ...blockDeviceNameShape,
  requested: z.string().nullable(),
  /** `all`: one of every disk `assess --all` found (lsblk). */
  resolvedFrom: z.enum(['argument', 'working-directory', 'bundle', 'all']),
});

/** What systeminformation guessed about the disk against what sysfs says. */
const crossCheckSchema = z.object({
  device: z.string(),
  systeminformationType: z.string(),
  sysfsMediaKind: z.enum(['ssd', 'hdd', 'unknown']),
  agrees: z.boolean(),
  note: z.string(),
});

/** Where the data came from: a live run or a bundle collected elsewhere. */
const provenanceSchema = z.object({
  mode: z.enum(['live', 'bundle']),
  /** When the captures were made (the bundle's time for bundles). */
  collectedAt: z.iso.datetime(),
  platform: z.string(),
});

/**
 * The result of `encplan assess`. The sections from `disk` to `overProvisioning` are Linux-shaped (lsblk, sysfs,
 * dm-crypt): on macOS and Windows they are null and `storage` (the storage model) holds the platform's facts.
 */
export const assessmentResultSchema = z.object({
  /** What the user came for: recommendations with reasons and evidence, predicted cost, the commands. */
  plan: planSchema.nullable(),
  target: targetSchema,
  provenance: provenanceSchema,
  disk: diskSchema.nullable(),
  media: z.object({ kind: z.enum(['ssd', 'hdd', 'unknown']), reason: z.string() }).nullable(),
  partitions: z.array(partitionSchema).nullable(),
  stack: stackNodeSchema.nullable(),
  encryption: encryptionInventorySchema.nullable(),
  space: spaceSchema.nullable(),
  /** SMART health and wear: one verdict, every finding citing attribute, value, threshold and source. */
  health: healthSchema.nullable(),
  /** TRIM at the drive and in the kernel. */
  trim: trimSchema.nullable(),
  /** Whether discards pass every layer from each filesystem down to the drive. */
  discardPassthrough: discardPassthroughSchema.nullable(),
  /** Self-encrypting drive capability (TCG Opal / Pyrite). */
  sed: sedSchema.nullable(),
  /** Whether the unallocated space can act as spare area, and fill levels of mounted filesystems. */
  overProvisioning: overProvisioningSchema.nullable(),
  /** Which kernel drivers dm-crypt and fscrypt would use (/proc/crypto). */
  kernelCrypto: kernelCryptoSchema.nullable(),
  /** Findings about the machine that matter before anything else (e.g. kernel AES unaccelerated). */
  findings: z.array(kernelCipherFindingSchema),
  /** Cipher and key-derivation speed; null unless --benchmark. */
  cipherBenchmark: cipherBenchmarkSchema.nullable(),
  /** Plain versus encrypted fio profiles in a scratch directory of the disk; null unless --benchmark. */
  ioBenchmark: ioBenchmarkSchema.nullable(),
  machine: machineSchema.nullable(),
  crossChecks: z.array(crossCheckSchema),
  capabilities: z.array(capabilitySchema),
  tools: z.array(toolRecordSchema),
  /**
   * Deprecated since assessment 1.4 (no longer written): macOS and Windows documents 1.2–1.3 carried the platform
   * probe set's facts here. Still read, by the storage model builder only (storageModelOf), so older documents
   * keep their reports, plans and fleet rows; `storage` holds all of it from 1.4 on.
   */
  platformStorage: platformStorageSchema.optional(),
  /**
   * The one storage model (schema 1.3), on every platform: disk → partitions → layers (dm-crypt, LVM, MD, loop,
   * BitLocker, APFS container, VeraCrypt, …) → volumes, each with its encryption state (kind, cipher, key bits,
   * protection on/off/suspended, conversion, keyslots or protectors). On macOS and Windows (1.4) also the drive's
   * health and TRIM as the platform relays them, the processor's AES and Apple silicon, FileVault, partition
   * labels and mount points, volume roles. Absent in older documents: readers derive it from the sections above
   * or from `platformStorage` (analyses/storage-model.ts, storageModelOf).
   */
  storage: storageModelSchema.optional(),
});
/** A validated {@link assessmentResultSchema} value. */
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;

/** `encplan assess --json` (and `collect --json`): see docs/json-contract.md for the changelog. */
export const assessmentDocument = commandDocument('assessment', [1, 9], 'assessment', assessmentResultSchema);
/** A validated `assessmentDocument.envelope` value (the whole `encplan assess --json` document). */
export type AssessmentEnvelope = z.infer<typeof assessmentDocument.envelope>;

/** The Linux-shaped sections of an assessment: null on macOS and Windows (schema 1.2). */
type LinuxSectionName =
  | 'disk'
  | 'media'
  | 'partitions'
  | 'stack'
  | 'encryption'
  | 'space'
  | 'health'
  | 'trim'
  | 'discardPassthrough'
  | 'sed'
  | 'overProvisioning';
/** An assessment made on Linux: every Linux-shaped section present. */
export type LinuxAssessmentResult = AssessmentResult & {
  readonly [K in LinuxSectionName]: NonNullable<AssessmentResult[K]>;
};

/** The result as a Linux assessment, or null when it is a macOS/Windows one (its Linux sections are null). */
export function linuxResultOf(result: AssessmentResult): LinuxAssessmentResult | null {
  const { disk, media, partitions, stack, encryption, space, health, trim, discardPassthrough, sed } = result;
  const overProvisioning = result.overProvisioning;
  if (
    disk === null ||
    media === null ||
    partitions === null ||
    stack === null ||
    encryption === null ||
    space === null ||
    health === null ||
    trim === null ||
    discardPassthrough === null ||
    sed === null ||
    overProvisioning === null
  ) {
    return null;
  }
  return {
    ...result,
    disk,
    media,
    partitions,
    stack,
    encryption,
    space,
    health,
    trim,
    discardPassthrough,
    sed,
    overProvisioning,
  };
}
/** One disk of `assess --all` in one line: health, TRIM path, spare area and what to fix first. */
const diskSummarySchema = z.object({
  device: z.string(),
  model: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  status: statusSchema,
  /** The drive's SMART verdict; unknown when SMART could not be read or the disk failed. */
  healthVerdict: healthVerdictSchema,
  /** The drive's own TRIM support (trim.status); null when the disk failed. */
  trim: trimSchema.shape.status.nullable(),
  /**
   * Whether discards reach the drive from every filesystem path of its stack: all, some, none, unknown
   * (a layer or the issuing is unknown), or no-filesystem (nothing on the disk issues discards).
   */
  discardPath: z.enum(['all', 'some', 'none', 'unknown', 'no-filesystem']),
  /** overProvisioning.status; null when the disk failed. */
  spareArea: overProvisioningSchema.shape.status.nullable(),
  /** Effective spare (unallocated that counts, NVMe unallocated, trimmed free space) in % of the disk. */
  spareAreaPercent: z.number().nullable(),
  /** What to fix, most urgent first: the health gate, critical and warning findings, TRIM and discard fixes. */
  fix: z.array(z.string()),
});
/** A validated {@link diskSummarySchema} value. */
export type DiskSummary = z.infer<typeof diskSummarySchema>;

/** One disk of `encplan assess --all`: its assessment, or the error that stopped it, with its own warnings. */
const machineDiskSchema = z.object({
  device: z.string(),
  status: statusSchema,
  /** The same result `encplan assess DEVICE --json` gives; null when the disk failed. */
  assessment: assessmentResultSchema.nullable(),
  warnings: z.array(warningSchema),
  error: errorBodySchema.nullable(),
});
/** A validated {@link machineDiskSchema} value. */
export type MachineDisk = z.infer<typeof machineDiskSchema>;

/** The result of `encplan assess --all`: the machine's facts once, a summary line and an assessment per disk. */
const machineAssessmentResultSchema = z.object({
  provenance: provenanceSchema,
  machine: machineSchema.nullable(),
  kernelCrypto: kernelCryptoSchema.nullable(),
  capabilities: z.array(capabilitySchema),
  tools: z.array(toolRecordSchema),
  /** What to fix on the machine itself, once for every disk (e.g. the kernel's unaccelerated AES driver). */
  machineFindings: z.array(z.string()),
  /** One line per disk, in lsblk's order: the machine at a glance. */
  summary: z.array(diskSummarySchema),
  disks: z.array(machineDiskSchema),
});

/**
 * `encplan assess --all --json` (and `collect --all --json`): every whole disk of the machine. A disk that
 * fails is an entry with status `error`; the envelope is then `partial` with a warning naming it.
 */
export const machineAssessmentDocument = defineDocument({
  name: 'encplan.machine-assessment',
  version: [1, 7],
  title: 'encplan machine assessment envelope (assess --all)',
  result: machineAssessmentResultSchema,
});
/** A validated `machineAssessmentDocument.envelope` value. */
export type MachineAssessmentEnvelope = z.infer<typeof machineAssessmentDocument.envelope>;
