import { z } from 'zod';
import { capabilitySchema } from '../domain/capabilities.js';
import { cipherBenchmarkSchema } from '../domain/cipher.js';
import { cleanupReportSchema } from '../domain/cleanup.js';
import { driveSummarySchema } from '../analyses/drive-summary.js';
import { fleetReportResultSchema } from '../domain/fleet-report.js';
import { healthSchema } from '../domain/health.js';
import { ioBenchmarkSchema } from '../domain/io-benchmark.js';
import { toolRecordSchema } from '../domain/tooling.js';
import { assessmentDocument, machineAssessmentDocument } from './assessment.js';
import { commandDocument, type JsonDocument } from './document.js';
import { planDocument } from './plan-document.js';

/** `encplan health FILE.json --json`: the health section of a saved smartctl output. */
// The health section plus what the same output says about the drive itself (media kind, TRIM).
export const healthDocument = commandDocument(
  'health',
  [1, 2],
  'health',
  healthSchema.extend({ drive: driveSummarySchema }),
);

/** `encplan benchmark ciphers --json`: cipher and key-derivation speed, the kernel AES driver. */
export const cipherBenchmarkDocument = commandDocument(
  'cipher-benchmark',
  [1, 4],
  'benchmark ciphers',
  cipherBenchmarkSchema,
);

/** `encplan benchmark io --json`: plain versus encrypted fio profiles and the overhead of each. */
export const ioBenchmarkDocument = commandDocument('benchmark-io', [1, 2], 'benchmark io', ioBenchmarkSchema);

/** `encplan cleanup --json`: what was removed of what interrupted benchmarks left. */
export const cleanupDocument = commandDocument('cleanup', [1, 2], 'cleanup', cleanupReportSchema);

/** `encplan doctor --json`: the tools and kernel features encplan uses, and what a missing one costs. */
export const doctorDocument = commandDocument(
  'doctor',
  [1, 1],
  'doctor',
  z.object({
    tools: z.array(
      toolRecordSchema.extend({
        purpose: z.string(),
        /** How to get a missing tool on this platform (doctor 1.1; null when present, absent before 1.1). */
        install: z.string().nullable().optional(),
      }),
    ),
    capabilities: z.array(capabilitySchema),
  }),
);
export type DoctorEnvelope = z.infer<typeof doctorDocument.envelope>;

/** `encplan version --json`. */
export const versionDocument = commandDocument(
  'version',
  [1, 0],
  'version',
  z.object({ version: z.string(), platform: z.string(), arch: z.string(), node: z.string() }),
);

/** `encplan help --json`: the commands, each with its usage and summary. */
export const helpDocument = commandDocument(
  'help',
  [1, 0],
  'help',
  z.object({
    commands: z.array(z.object({ command: z.string(), usage: z.string(), summary: z.string() })),
  }),
);

/** `encplan completion SHELL --json`: the completion script as text. */
export const completionDocument = commandDocument(
  'completion',
  [1, 0],
  'completion',
  z.object({ shell: z.enum(['bash', 'zsh', 'fish']), script: z.string() }),
);

/** `encplan man --json` (hidden; the release build uses it): encplan(1) in roff. */
export const manDocument = commandDocument('man', [1, 0], 'man page', z.object({ roff: z.string() }));

/** `encplan fleet report --json`: many machines' assessments in one view, a flat row per machine and disk. */
export const fleetReportDocument = commandDocument(
  'fleet-report',
  [1, 4],
  'fleet report',
  fleetReportResultSchema,
);

/** `encplan ui --json`: where the wizard is served (the URL carries the per-run token). */
export const uiDocument = commandDocument(
  'ui',
  [1, 0],
  'ui',
  z.object({ url: z.string(), port: z.number().int() }),
);

/** `encplan schema --json`: the documents encplan prints; with a name, that document's JSON Schema too. */
export const schemaListDocument = commandDocument(
  'schema',
  [1, 0],
  'schema',
  z.object({
    documents: z.array(
      z.object({
        schema: z.string(),
        schemaVersion: z.tuple([z.number().int(), z.number().int()]),
        file: z.string(),
        jsonSchema: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  }),
);

/** The wizard's bridge (IPC and `encplan ui`'s HTTP API): every answer is one of these; `result` depends on the method. */
export const bridgeDocument = commandDocument('bridge', [1, 0], 'wizard bridge', z.unknown());

/**
 * Every JSON document encplan prints. A new document is one `commandDocument` (or `defineDocument`) and one line here; then
 * `npm run schema` writes its JSON Schema and the drift test checks it.
 */
export const DOCUMENTS: readonly JsonDocument[] = [
  assessmentDocument,
  machineAssessmentDocument,
  planDocument,
  healthDocument,
  cipherBenchmarkDocument,
  ioBenchmarkDocument,
  cleanupDocument,
  doctorDocument,
  versionDocument,
  helpDocument,
  completionDocument,
  manDocument,
  fleetReportDocument,
  uiDocument,
  schemaListDocument,
  bridgeDocument,
];

/** A document by its name (`encplan.plan`) or short name (`plan`); null when there is none. */
export function findDocument(name: string): JsonDocument | null {
  return DOCUMENTS.find((document) => document.name === name || document.name === `encplan.${name}`) ?? null;
}
