import { z } from 'zod';
import { capabilitySchema } from '../domain/capabilities.js';
import { machineSchema } from '../domain/cpu.js';
import { diskSchema, partitionSchema, stackNodeSchema } from '../domain/device.js';
import { encryptionInventorySchema } from '../domain/encryption.js';
import { spaceSchema } from '../domain/space.js';
import { toolRecordSchema } from '../domain/tooling.js';
import { envelopeSchema } from './envelope.js';

/** The schema name and version of `encplan assess --json`. See docs/json-contract.md for the changelog. */
export const ASSESSMENT_SCHEMA = 'encplan.assessment' as const;
export const ASSESSMENT_SCHEMA_VERSION = [1, 0] as const;

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
  target: targetSchema,
  provenance: provenanceSchema,
  disk: diskSchema,
  media: z.object({ kind: z.enum(['ssd', 'hdd', 'unknown']), reason: z.string() }),
  partitions: z.array(partitionSchema),
  stack: stackNodeSchema,
  encryption: encryptionInventorySchema,
  space: spaceSchema,
  machine: machineSchema.nullable(),
  crossChecks: z.array(crossCheckSchema),
  capabilities: z.array(capabilitySchema),
  tools: z.array(toolRecordSchema),
});
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;

/** The envelope of `encplan assess --json`. */
export const assessmentEnvelopeSchema = envelopeSchema(ASSESSMENT_SCHEMA, assessmentResultSchema);
export type AssessmentEnvelope = z.infer<typeof assessmentEnvelopeSchema>;

/** The JSON Schema of the assessment envelope, generated from the zod schemas (committed as schemas/). */
export function assessmentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(assessmentEnvelopeSchema, { target: 'draft-2020-12', io: 'output' }),
    $id: 'https://encplan.dev/schemas/assessment.v1.json',
    title: 'encplan assessment envelope',
  };
}
