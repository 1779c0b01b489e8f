import { z } from 'zod';
import { capabilitySchema } from '../domain/capabilities.js';
import { machineSchema } from '../domain/cpu.js';
import { diskSchema, partitionSchema, stackNodeSchema } from '../domain/device.js';
import { encryptionInventorySchema } from '../domain/encryption.js';
import { spaceSchema } from '../domain/space.js';
import { toolRecordSchema } from '../domain/tooling.js';
import { defineDocument } from './document.js';
import { healthSchema } from '../domain/health.js';
import { planSchema } from '../plan/plan.js';
import { ioBenchmarkSchema } from '../domain/io-benchmark.js';
import { discardPassthroughSchema, trimSchema } from '../domain/trim.js';
import { sedSchema } from '../domain/sed.js';
import { overProvisioningSchema } from '../domain/over-provisioning.js';
import { cipherBenchmarkSchema, kernelCipherFindingSchema, kernelCryptoSchema } from '../domain/cipher.js';

/** Which disk was assessed and why that one. */
export const targetSchema = z.object({
  path: z.string(),
  kernelName: z.string(),
  requested: z.string().nullable(),
  resolvedFrom: z.enum(['argument', 'working-directory', 'bundle']),
});

/** What systeminformation guessed about the disk against what sysfs says. */
export const crossCheckSchema = z.object({
  device: z.string(),
  systeminformationType: z.string(),
  sysfsMediaKind: z.enum(['ssd', 'hdd', 'unknown']),
  agrees: z.boolean(),
  note: z.string(),
});

/** Where the data came from: a live run or a bundle collected elsewhere. */
export const provenanceSchema = z.object({
  mode: z.enum(['live', 'bundle']),
  /** When the captures were made (the bundle's time for bundles). */
  collectedAt: z.iso.datetime(),
  platform: z.string(),
});

/** The result of `encplan assess`. */
export const assessmentResultSchema = z.object({
  /** What the user came for: recommendations with reasons and evidence, predicted cost, the commands. */
  plan: planSchema.nullable(),
  target: targetSchema,
  provenance: provenanceSchema,
  disk: diskSchema,
  media: z.object({ kind: z.enum(['ssd', 'hdd', 'unknown']), reason: z.string() }),
  partitions: z.array(partitionSchema),
  stack: stackNodeSchema,
  encryption: encryptionInventorySchema,
  space: spaceSchema,
  /** SMART health and wear: one verdict, every finding citing attribute, value, threshold and source. */
  health: healthSchema,
  /** TRIM at the drive and in the kernel. */
  trim: trimSchema,
  /** Whether discards pass every layer from each filesystem down to the drive. */
  discardPassthrough: discardPassthroughSchema,
  /** Self-encrypting drive capability (TCG Opal / Pyrite). */
  sed: sedSchema,
  /** Whether the unallocated space can act as spare area, and fill levels of mounted filesystems. */
  overProvisioning: overProvisioningSchema,
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
});
/** A validated {@link assessmentResultSchema} value. */
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;

/** `encplan assess --json` (and `collect --json`): see docs/json-contract.md for the changelog. */
export const assessmentDocument = defineDocument({
  name: 'encplan.assessment',
  version: [1, 2],
  title: 'encplan assessment envelope',
  result: assessmentResultSchema,
});
/** A validated `assessmentDocument.envelope` value (the whole `encplan assess --json` document). */
export type AssessmentEnvelope = z.infer<typeof assessmentDocument.envelope>;
