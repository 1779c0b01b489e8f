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
import { defineDocument, type JsonDocument } from './document.js';
import { planDocument } from './plan-document.js';

/** `encplan health FILE.json --json`: the health section of a saved smartctl output. */
export const healthDocument = defineDocument({
  name: 'encplan.health',
  version: [1, 1],
  title: 'encplan health envelope',
  // The health section plus what the same output says about the drive itself (media kind, TRIM).
  result: healthSchema.extend({ drive: driveSummarySchema }),
});

/** `encplan benchmark ciphers --json`: cipher and key-derivation speed, the kernel AES driver. */
export const cipherBenchmarkDocument = defineDocument({
  name: 'encplan.cipher-benchmark',
  version: [1, 1],
  title: 'encplan benchmark ciphers envelope',
  result: cipherBenchmarkSchema,
});

/** `encplan benchmark io --json`: plain versus encrypted fio profiles and the overhead of each. */
export const ioBenchmarkDocument = defineDocument({
  name: 'encplan.benchmark-io',
  version: [1, 2],
  title: 'encplan benchmark io envelope',
  result: ioBenchmarkSchema,
});

/** `encplan cleanup --json`: what was removed of what interrupted benchmarks left. */
export const cleanupDocument = defineDocument({
  name: 'encplan.cleanup',
  version: [1, 1],
  title: 'encplan cleanup envelope',
  result: cleanupReportSchema,
});

/** `encplan doctor --json`: the tools and kernel features encplan uses, and what a missing one costs. */
export const doctorDocument = defineDocument({
  name: 'encplan.doctor',
  version: [1, 0],
  title: 'encplan doctor envelope',
  result: z.object({
    tools: z.array(toolRecordSchema.extend({ purpose: z.string() })),
    capabilities: z.array(capabilitySchema),
  }),
});
export type DoctorEnvelope = z.infer<typeof doctorDocument.envelope>;

/** `encplan version --json`. */
export const versionDocument = defineDocument({
  name: 'encplan.version',
  version: [1, 0],
  title: 'encplan version envelope',
  result: z.object({ version: z.string(), platform: z.string(), arch: z.string(), node: z.string() }),
});

/** `encplan help --json`: the commands, each with its usage and summary. */
export const helpDocument = defineDocument({
  name: 'encplan.help',
  version: [1, 0],
  title: 'encplan help envelope',
  result: z.object({
    commands: z.array(z.object({ command: z.string(), usage: z.string(), summary: z.string() })),
  }),
});

/** `encplan completion SHELL --json`: the completion script as text. */
export const completionDocument = defineDocument({
  name: 'encplan.completion',
  version: [1, 0],
  title: 'encplan completion envelope',
  result: z.object({ shell: z.enum(['bash', 'zsh', 'fish']), script: z.string() }),
});

/** `encplan man --json` (hidden; the release build uses it): encplan(1) in roff. */
export const manDocument = defineDocument({
  name: 'encplan.man',
  version: [1, 0],
  title: 'encplan man page envelope',
  result: z.object({ roff: z.string() }),
});

/** `encplan fleet report --json`: many machines' assessments in one view, a flat row per machine and disk. */
export const fleetReportDocument = defineDocument({
  name: 'encplan.fleet-report',
  version: [1, 0],
  title: 'encplan fleet report envelope',
  result: fleetReportResultSchema,
});

/** `encplan ui --json`: where the wizard is served (the URL carries the per-run token). */
export const uiDocument = defineDocument({
  name: 'encplan.ui',
  version: [1, 0],
  title: 'encplan ui envelope',
  result: z.object({ url: z.string(), port: z.number().int() }),
});

/** `encplan schema --json`: the documents encplan prints; with a name, that document's JSON Schema too. */
export const schemaListDocument = defineDocument({
  name: 'encplan.schema',
  version: [1, 0],
  title: 'encplan schema envelope',
  result: z.object({
    documents: z.array(
      z.object({
        schema: z.string(),
        schemaVersion: z.tuple([z.number().int(), z.number().int()]),
        file: z.string(),
        jsonSchema: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  }),
});

/** The wizard's bridge (IPC and `encplan ui`'s HTTP API): every answer is one of these; `result` depends on the method. */
export const bridgeDocument = defineDocument({
  name: 'encplan.bridge',
  version: [1, 0],
  title: 'encplan wizard bridge envelope',
  result: z.unknown(),
});

/**
 * Every JSON document encplan prints. A new document is one `defineDocument` and one line here; then
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
