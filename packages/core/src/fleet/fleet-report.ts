import { z } from 'zod';
import {
  ASSESSMENT_SCHEMA,
  ASSESSMENT_SCHEMA_VERSION,
  assessmentEnvelopeSchema,
  type AssessmentEnvelope,
} from '../contract/assessment.js';
import { envelopeSchema } from '../contract/envelope.js';
import { formatBytes } from '../domain/units.js';
import { TOOL_VERSION } from '../version.js';

/** The schema name and version of `encplan fleet report --json`. Changelog: docs/json-contract.md. */
export const FLEET_REPORT_SCHEMA = 'encplan.fleet-report' as const;
export const FLEET_REPORT_SCHEMA_VERSION = [1, 0] as const;

/**
 * encplan releases whose assessment documents this version understands. A document from any other version is
 * still read when it validates, but its row says `unknown-tool-version` and the version table flags it, so a
 * fleet of mixed releases is never merged silently.
 */
export const KNOWN_TOOL_VERSIONS: readonly string[] = [TOOL_VERSION];

/**
 * Wear (SMART percentage used) from which a drive counts as worn out: GSmartControl warns at ≥ 90 and
 * CrystalDiskInfo cautions at ≤ 10 % life left (gsmartcontrol: src/applib/storage_property_descr.cpp;
 * CrystalDiskInfo's health thresholds). The plan's health gate uses the same figure.
 */
export const WORN_PERCENT_USED = 90;

/** What must be fixed before a machine is encrypted as planned. Ids are stable; never renamed. */
export const FLEET_ISSUES = [
  'drive-failing',
  'drive-worn',
  'aes-unaccelerated',
  'discards-blocked',
  'no-spare-area',
  'encrypted-weaker',
] as const;
export const fleetIssueSchema = z.enum(FLEET_ISSUES);
export type FleetIssue = z.infer<typeof fleetIssueSchema>;

/** People's words for each issue (text, CSV header notes, HTML). */
export const FLEET_ISSUE_LABELS: Readonly<Record<FleetIssue, string>> = {
  'drive-failing': 'failing drive',
  'drive-worn': 'worn drive',
  'aes-unaccelerated': 'AES not accelerated in the kernel',
  'discards-blocked': 'discards blocked by a layer',
  'no-spare-area': 'no spare area',
  'encrypted-weaker': 'already encrypted with weaker settings',
};

/** What a document is, before anything is read from it. */
export const documentStatusSchema = z.enum([
  'valid',
  'unknown-tool-version',
  'unsupported-schema-version',
  'not-an-assessment',
  'invalid',
]);

/**
 * ready: encrypt as planned. fix-first: at least one issue. already-encrypted: encrypted with settings at least
 * as strong as the plan's. no-plan: the assessment made no plan. not-assessed: the assessment itself failed, or
 * the document could not be used (see documentStatus and error).
 */
export const readinessSchema = z.enum(['ready', 'fix-first', 'already-encrypted', 'no-plan', 'not-assessed']);
export type Readiness = z.infer<typeof readinessSchema>;

/** One flat row per document (machine and disk): scalars only, so it loads into a spreadsheet or SQL as is. */
export const fleetRowSchema = z.object({
  /** The file (or bundle directory) the row was read from, as given on the command line. */
  source: z.string(),
  /** The machine: the first folder below a PATH argument, else the file's name without `.json`. */
  machine: z.string(),
  disk: z.string().nullable(),
  documentStatus: documentStatusSchema,
  /** Why the document could not be used, or the assessment's own error code. */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  schemaVersion: z.string().nullable(),
  toolVersion: z.string().nullable(),
  generatedAt: z.string().nullable(),
  assessmentStatus: z.enum(['ok', 'partial', 'error']).nullable(),
  readiness: readinessSchema,
  /** The issue ids, separated by ";" (the booleans below say the same per column). */
  issues: z.string(),
  driveFailing: z.boolean(),
  driveWorn: z.boolean(),
  aesUnaccelerated: z.boolean(),
  discardsBlocked: z.boolean(),
  noSpareArea: z.boolean(),
  encryptedWeaker: z.boolean(),
  /** One sentence per issue, separated by " | ". */
  issueDetails: z.string(),
  model: z.string().nullable(),
  transport: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  healthVerdict: z.string().nullable(),
  wearPercentUsed: z.number().nullable(),
  healthGate: z.string().nullable(),
  cpuModel: z.string().nullable(),
  cpuHasAes: z.boolean().nullable(),
  existingEncryption: z.string().nullable(),
  spareAreaStatus: z.string().nullable(),
  planCipher: z.string().nullable(),
  planKeySizeBits: z.number().int().nullable(),
  planSectorSizeBytes: z.number().int().nullable(),
  planAllowDiscards: z.boolean().nullable(),
  planWorkqueueBypass: z.boolean().nullable(),
  planPbkdfMemoryKiB: z.number().int().nullable(),
  planPbkdfParallel: z.number().int().nullable(),
  planUnallocatedBytes: z.number().int().nullable(),
  planCommands: z.number().int().nullable(),
  /** The plan in one line (the commands are `jq .result.plan.commands` on the source). */
  planSummary: z.string().nullable(),
});
export type FleetRow = z.infer<typeof fleetRowSchema>;

export const fleetReportResultSchema = z.object({
  summary: z.object({
    documents: z.number().int(),
    machines: z.number().int(),
    ready: z.number().int(),
    fixFirst: z.number().int(),
    alreadyEncrypted: z.number().int(),
    noPlan: z.number().int(),
    notAssessed: z.number().int(),
    /** Documents that could not be read, validated, or are of another schema major version. */
    unusable: z.number().int(),
  }),
  /** How many rows have each issue (a row can have several). */
  issueCounts: z.array(z.object({ issue: fleetIssueSchema, label: z.string(), count: z.number().int() })),
  /** Every schema and tool version seen, so mixed fleets are visible. */
  versions: z.array(
    z.object({
      schema: z.string(),
      schemaVersion: z.string(),
      toolVersion: z.string(),
      documents: z.number().int(),
      supported: z.boolean(),
    }),
  ),
  rows: z.array(fleetRowSchema),
});
export type FleetReport = z.infer<typeof fleetReportResultSchema>;

export const fleetReportEnvelopeSchema = envelopeSchema(FLEET_REPORT_SCHEMA, fleetReportResultSchema);

/** The JSON Schema of the fleet report envelope, generated from the zod schemas (committed under schemas/). */
export function fleetReportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(fleetReportEnvelopeSchema, { target: 'draft-2020-12', io: 'output' }),
    $id: 'https://encplan.dev/schemas/fleet-report.v1.json',
    title: 'encplan fleet report envelope',
  };
}

/** One document as the reader found it: parsed JSON, or why it could not be parsed. */
export type FleetDocument =
  | { readonly source: string; readonly machine: string; readonly json: unknown }
  | {
      readonly source: string;
      readonly machine: string;
      readonly error: { readonly code: string; readonly message: string };
    };

const EMPTY_ROW_FIELDS = {
  disk: null,
  errorCode: null,
  errorMessage: null,
  schemaVersion: null,
  toolVersion: null,
  generatedAt: null,
  assessmentStatus: null,
  issues: '',
  driveFailing: false,
  driveWorn: false,
  aesUnaccelerated: false,
  discardsBlocked: false,
  noSpareArea: false,
  encryptedWeaker: false,
  issueDetails: '',
  model: null,
  transport: null,
  sizeBytes: null,
  healthVerdict: null,
  wearPercentUsed: null,
  healthGate: null,
  cpuModel: null,
  cpuHasAes: null,
  existingEncryption: null,
  spareAreaStatus: null,
  planCipher: null,
  planKeySizeBits: null,
  planSectorSizeBytes: null,
  planAllowDiscards: null,
  planWorkqueueBypass: null,
  planPbkdfMemoryKiB: null,
  planPbkdfParallel: null,
  planUnallocatedBytes: null,
  planCommands: null,
  planSummary: null,
} satisfies Omit<FleetRow, 'source' | 'machine' | 'documentStatus' | 'readiness'>;

/** The fields every envelope has, read loosely so a document of another version can still be described. */
const headerSchema = z.object({
  schema: z.string(),
  schemaVersion: z.tuple([z.number().int(), z.number().int()]),
  toolVersion: z.string(),
});

/**
 * `encplan fleet report`: one row per assessment document, each classified ready / fix-first / …, the issues
 * counted, and every schema and tool version listed. Pure: the documents are already read.
 */
export function buildFleetReport(documents: readonly FleetDocument[]): FleetReport {
  const rows = documents.map(classifyDocument);
  rows.sort(
    (a, b) =>
      READINESS_ORDER.indexOf(a.readiness) - READINESS_ORDER.indexOf(b.readiness) ||
      a.machine.localeCompare(b.machine) ||
      (a.disk ?? '').localeCompare(b.disk ?? ''),
  );
  const count = (readiness: Readiness) => rows.filter((row) => row.readiness === readiness).length;
  const versions = new Map<string, FleetReport['versions'][number]>();
  for (const document of documents) {
    if (!('json' in document)) {
      continue;
    }
    const header = headerSchema.safeParse(document.json);
    if (!header.success) {
      continue;
    }
    const schemaVersion = header.data.schemaVersion.join('.');
    const key = `${header.data.schema}\u0000${schemaVersion}\u0000${header.data.toolVersion}`;
    const entry = versions.get(key) ?? {
      schema: header.data.schema,
      schemaVersion,
      toolVersion: header.data.toolVersion,
      documents: 0,
      supported:
        header.data.schema === ASSESSMENT_SCHEMA &&
        header.data.schemaVersion[0] === ASSESSMENT_SCHEMA_VERSION[0] &&
        KNOWN_TOOL_VERSIONS.includes(header.data.toolVersion),
    };
    versions.set(key, { ...entry, documents: entry.documents + 1 });
  }
  return {
    summary: {
      documents: rows.length,
      machines: new Set(rows.map((row) => row.machine)).size,
      ready: count('ready'),
      fixFirst: count('fix-first'),
      alreadyEncrypted: count('already-encrypted'),
      noPlan: count('no-plan'),
      notAssessed: count('not-assessed'),
      unusable: rows.filter(
        (row) => row.documentStatus !== 'valid' && row.documentStatus !== 'unknown-tool-version',
      ).length,
    },
    issueCounts: FLEET_ISSUES.map((issue) => ({
      issue,
      label: FLEET_ISSUE_LABELS[issue],
      count: rows.filter((row) => row.issues.split(';').includes(issue)).length,
    })),
    versions: [...versions.values()].sort(
      (a, b) =>
        a.schema.localeCompare(b.schema) ||
        a.schemaVersion.localeCompare(b.schemaVersion) ||
        a.toolVersion.localeCompare(b.toolVersion),
    ),
    rows,
  };
}

const READINESS_ORDER: readonly Readiness[] = [
  'fix-first',
  'not-assessed',
  'no-plan',
  'ready',
  'already-encrypted',
];

function unusableRow(
  source: string,
  machine: string,
  documentStatus: FleetRow['documentStatus'],
  code: string,
  message: string,
  header?: z.infer<typeof headerSchema>,
): FleetRow {
  return {
    source,
    machine,
    documentStatus,
    readiness: 'not-assessed',
    ...EMPTY_ROW_FIELDS,
    errorCode: code,
    errorMessage: message,
    schemaVersion: header ? header.schemaVersion.join('.') : null,
    toolVersion: header?.toolVersion ?? null,
  };
}

function classifyDocument(document: FleetDocument): FleetRow {
  const { source, machine } = document;
  if ('error' in document) {
    return unusableRow(source, machine, 'invalid', document.error.code, document.error.message);
  }
  const header = headerSchema.safeParse(document.json);
  if (!header.success) {
    return unusableRow(
      source,
      machine,
      'not-an-assessment',
      'DOCUMENT_INVALID',
      'Not an encplan envelope (no schema, schemaVersion and toolVersion).',
    );
  }
  if (header.data.schema !== ASSESSMENT_SCHEMA) {
    return unusableRow(
      source,
      machine,
      'not-an-assessment',
      'DOCUMENT_INVALID',
      `An ${header.data.schema} document, not ${ASSESSMENT_SCHEMA}.`,
      header.data,
    );
  }
  if (header.data.schemaVersion[0] !== ASSESSMENT_SCHEMA_VERSION[0]) {
    return unusableRow(
      source,
      machine,
      'unsupported-schema-version',
      'SCHEMA_VERSION_UNSUPPORTED',
      `Assessment schema ${header.data.schemaVersion.join('.')} from encplan ${header.data.toolVersion}; this encplan reads ${String(ASSESSMENT_SCHEMA_VERSION[0])}.x. Re-run that machine with this release.`,
      header.data,
    );
  }
  const parsed = assessmentEnvelopeSchema.safeParse(document.json);
  if (!parsed.success) {
    const message = z.prettifyError(parsed.error).split('\n').slice(0, 6).join(' ');
    return unusableRow(
      source,
      machine,
      'invalid',
      'DOCUMENT_INVALID',
      `Does not match the assessment schema: ${message}`,
      header.data,
    );
  }
  const documentStatus = KNOWN_TOOL_VERSIONS.includes(parsed.data.toolVersion)
    ? 'valid'
    : 'unknown-tool-version';
  return { source, machine, documentStatus, ...assessmentRow(parsed.data) };
}

function assessmentRow(
  envelope: AssessmentEnvelope,
): Omit<FleetRow, 'source' | 'machine' | 'documentStatus'> {
  const base = {
    ...EMPTY_ROW_FIELDS,
    schemaVersion: envelope.schemaVersion.join('.'),
    toolVersion: envelope.toolVersion,
    generatedAt: envelope.generatedAt,
    assessmentStatus: envelope.status,
  };
  const result = envelope.result;
  if (result === null) {
    return {
      ...base,
      readiness: 'not-assessed',
      errorCode: envelope.error?.code ?? null,
      errorMessage: envelope.error?.message ?? null,
    };
  }
  const plan = result.plan;
  const found = findIssues(result);
  const issues = [...found.keys()];
  const has = (issue: FleetIssue) => found.has(issue);
  const encrypted = result.encryption.found.length > 0;
  let readiness: Readiness;
  if (issues.length > 0) {
    readiness = 'fix-first';
  } else if (encrypted) {
    readiness = 'already-encrypted';
  } else if (plan === null) {
    readiness = 'no-plan';
  } else {
    readiness = 'ready';
  }
  const pbkdf = plan?.settings.luks2Pbkdf ?? null;
  return {
    ...base,
    readiness,
    disk: result.target.path,
    issues: issues.join(';'),
    driveFailing: has('drive-failing'),
    driveWorn: has('drive-worn'),
    aesUnaccelerated: has('aes-unaccelerated'),
    discardsBlocked: has('discards-blocked'),
    noSpareArea: has('no-spare-area'),
    encryptedWeaker: has('encrypted-weaker'),
    issueDetails: [...found.values()].join(' | '),
    model: result.disk.model,
    transport: result.disk.transport,
    sizeBytes: result.disk.sizeBytes,
    healthVerdict: result.health.verdict,
    wearPercentUsed: result.health.percentageUsed,
    healthGate: plan?.healthGate.status ?? null,
    cpuModel: result.machine?.cpuModel ?? null,
    cpuHasAes: result.machine?.cryptoFlags.aes ?? null,
    existingEncryption: encrypted ? result.encryption.found.map(describeEncryption).join('; ') : null,
    spareAreaStatus: result.overProvisioning.status,
    planCipher: plan?.settings.cipher ?? null,
    planKeySizeBits: plan?.settings.keySizeBits ?? null,
    planSectorSizeBytes: plan?.settings.sectorSizeBytes ?? null,
    planAllowDiscards: plan?.settings.allowDiscards ?? null,
    planWorkqueueBypass: plan?.settings.workqueueBypass ?? null,
    planPbkdfMemoryKiB: pbkdf?.memoryKiB ?? null,
    planPbkdfParallel: pbkdf?.parallel ?? null,
    planUnallocatedBytes: plan?.settings.space?.unallocatedBytes ?? null,
    planCommands: plan?.commands.length ?? null,
    planSummary: plan === null ? null : summarisePlan(plan),
  };
}

type AssessmentResult = NonNullable<AssessmentEnvelope['result']>;
type AssessmentPlan = NonNullable<AssessmentResult['plan']>;

/** Each issue the assessment shows, with one sentence saying why (in FLEET_ISSUES order). */
function findIssues(result: AssessmentResult): Map<FleetIssue, string> {
  const issues = new Map<FleetIssue, string>();
  const gate = result.plan?.healthGate ?? null;
  const wear = result.health.percentageUsed;
  if (result.health.verdict === 'failing' || gate?.effectiveVerdict === 'failing') {
    issues.set('drive-failing', gate?.reason ?? 'SMART says the drive is failing.');
  }
  if (wear !== null && wear >= WORN_PERCENT_USED) {
    issues.set(
      'drive-worn',
      `SMART percentage used is ${String(wear)} % (worn from ${String(WORN_PERCENT_USED)} %).`,
    );
  }
  const kernelFinding = result.findings.find((finding) => finding.id === 'kernel-aes-unaccelerated');
  const cpuHasAes = result.machine?.cryptoFlags.aes ?? null;
  if (kernelFinding !== undefined) {
    issues.set('aes-unaccelerated', kernelFinding.message);
  } else if (cpuHasAes === false && result.plan?.settings.cipher.startsWith('aes') === true) {
    issues.set(
      'aes-unaccelerated',
      `The CPU (${result.machine?.cpuModel ?? 'unknown'}) has no AES instructions, yet the plan uses ${result.plan.settings.cipher}.`,
    );
  } else if (cpuHasAes === false) {
    issues.set(
      'aes-unaccelerated',
      `The CPU (${result.machine?.cpuModel ?? 'unknown'}) has no AES instructions; the plan uses ${result.plan?.settings.cipher ?? 'no cipher yet'}.`,
    );
  }
  const blocked = result.discardPassthrough.paths.filter((path) => path.passesToDisk === false);
  if (blocked.length > 0) {
    issues.set(
      'discards-blocked',
      blocked
        .map(
          (path) =>
            `${path.topPath}: discards stop at ${path.firstBlockingLayer ?? 'a layer'}${path.fix === null ? '' : ` (fix: ${path.fix})`}`,
        )
        .join('; '),
    );
  }
  if (result.overProvisioning.status === 'none') {
    issues.set('no-spare-area', 'No unallocated or trimmed space can serve the drive as spare area.');
  }
  const weaker =
    result.plan === null
      ? []
      : result.encryption.found.flatMap((found) => weakerThanPlan(found, result.plan as AssessmentPlan));
  if (weaker.length > 0) {
    issues.set('encrypted-weaker', weaker.join('; '));
  }
  return issues;
}

type Existing = AssessmentResult['encryption']['found'][number];

/** Why an existing LUKS volume is weaker than the plan (empty when it is not, or cannot be compared). */
function weakerThanPlan(found: Existing, plan: AssessmentPlan): string[] {
  if (found.format !== 'luks1' && found.format !== 'luks2') {
    return [];
  }
  const reasons: string[] = [];
  const planned = plan.settings;
  if (found.format === 'luks1') {
    reasons.push(`${found.path} is LUKS1 (PBKDF2 only, no Argon2)`);
  }
  if (found.keyBits !== null && planned.keySizeBits !== null && found.keyBits < planned.keySizeBits) {
    reasons.push(
      `${found.path} has a ${String(found.keyBits)}-bit key, the plan ${String(planned.keySizeBits)}`,
    );
  }
  if (found.cipher !== null && !/xts|adiantum/.test(found.cipher)) {
    reasons.push(`${found.path} uses ${found.cipher}, not a wide-block or XTS mode`);
  }
  const wanted = planned.luks2Pbkdf;
  if (wanted !== null) {
    for (const slot of found.pbkdf) {
      if (slot.type === 'pbkdf2') {
        reasons.push(`${found.path} keyslot ${slot.keyslot} uses PBKDF2, the plan argon2id`);
      } else if (slot.memoryKibibytes !== null && slot.memoryKibibytes < wanted.memoryKiB) {
        reasons.push(
          `${found.path} keyslot ${slot.keyslot} uses ${String(slot.memoryKibibytes)} KiB of Argon2 memory, the plan ${String(wanted.memoryKiB)}`,
        );
      }
    }
  }
  return reasons;
}

function describeEncryption(found: Existing): string {
  const parts = [
    found.format,
    found.cipher,
    found.keyBits === null ? null : `${String(found.keyBits)}-bit`,
    ...new Set(found.pbkdf.map((slot) => slot.type)),
  ];
  return `${found.path}: ${parts.filter((part) => part !== null).join(' ')}`;
}

function summarisePlan(plan: AssessmentPlan): string {
  const settings = plan.settings;
  const parts = [
    `${settings.cipher}${settings.keySizeBits === null ? '' : ` ${String(settings.keySizeBits)}-bit`}`,
    settings.sectorSizeBytes === null ? null : `${String(settings.sectorSizeBytes)}-byte sectors`,
    settings.allowDiscards ? 'discards on' : 'discards off',
    settings.workqueueBypass ? 'no workqueues' : null,
    settings.luks2Pbkdf === null
      ? null
      : `argon2id ${formatBytes(settings.luks2Pbkdf.memoryKiB * 1024)} ×${String(settings.luks2Pbkdf.parallel)}`,
    settings.space !== null && settings.space.unallocatedBytes > 0
      ? `${formatBytes(settings.space.unallocatedBytes)} left unallocated`
      : null,
    `${String(plan.commands.length)} commands`,
  ];
  return parts.filter((part) => part !== null).join(', ');
}
