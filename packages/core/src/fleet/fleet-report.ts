import { z } from 'zod';
import {
  assessmentDocument,
  linuxResultOf,
  type AssessmentEnvelope,
  type LinuxAssessmentResult,
} from '../contract/assessment.js';
import {
  KNOWN_TOOL_VERSIONS,
  WORN_PERCENT_USED,
  FLEET_ISSUES,
  FLEET_ISSUE_LABELS,
  type FleetIssue,
  type Readiness,
  type FleetRow,
  type FleetReport,
} from '../domain/fleet-report.js';
import { formatBytes } from '../domain/units.js';
import { printableData } from '../report/printable.js';

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
export function buildFleetReport(toolDocuments: readonly FleetDocument[]): FleetReport {
  // Tool strings (models, messages) enter the fleet views here, control characters escaped (report/printable.ts).
  const documents = printableData(toolDocuments);
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
        header.data.schema === assessmentDocument.name &&
        header.data.schemaVersion[0] === assessmentDocument.version[0] &&
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
  if (header.data.schema !== assessmentDocument.name) {
    return unusableRow(
      source,
      machine,
      'not-an-assessment',
      'DOCUMENT_INVALID',
      `An ${header.data.schema} document, not ${assessmentDocument.name}.`,
      header.data,
    );
  }
  if (header.data.schemaVersion[0] !== assessmentDocument.version[0]) {
    return unusableRow(
      source,
      machine,
      'unsupported-schema-version',
      'SCHEMA_VERSION_UNSUPPORTED',
      `Assessment schema ${header.data.schemaVersion.join('.')} from encplan ${header.data.toolVersion}; this encplan reads ${String(assessmentDocument.version[0])}.x. Re-run that machine with this release.`,
      header.data,
    );
  }
  const parsed = assessmentDocument.envelope.safeParse(document.json);
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
  const linux = linuxResultOf(result);
  if (linux === null) {
    // The fleet report reads the Linux sections; a macOS/Windows assessment (schema 1.2) has none.
    return {
      ...base,
      readiness: 'not-assessed',
      errorCode: 'DEVICE_UNSUPPORTED',
      errorMessage: `A ${result.platformStorage?.platform ?? 'non-Linux'} assessment: the fleet report covers Linux disks.`,
    };
  }
  const plan = linux.plan;
  const found = findIssues(linux);
  const issues = [...found.keys()];
  const has = (issue: FleetIssue) => found.has(issue);
  const encrypted = linux.encryption.found.length > 0;
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
    model: linux.disk.model,
    transport: linux.disk.transport,
    sizeBytes: linux.disk.sizeBytes,
    healthVerdict: linux.health.verdict,
    wearPercentUsed: linux.health.percentageUsed,
    healthGate: plan?.healthGate.status ?? null,
    cpuModel: result.machine?.cpuModel ?? null,
    cpuHasAes: result.machine?.cryptoFlags.aes ?? null,
    existingEncryption: encrypted ? linux.encryption.found.map(describeEncryption).join('; ') : null,
    spareAreaStatus: linux.overProvisioning.status,
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
function findIssues(result: LinuxAssessmentResult): Map<FleetIssue, string> {
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

type Existing = LinuxAssessmentResult['encryption']['found'][number];

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
