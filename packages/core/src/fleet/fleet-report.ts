import { z } from 'zod';
import { hasLuksKeyslots, recogniseLuks2Segment, recogniseVolume } from '../targets/registry.js';
import {
  assessmentDocument,
  assessmentResultSchema,
  machineAssessmentDocument,
} from '../contract/assessment.js';
import { envelopeSchema } from '../contract/envelope.js';
import { machineSchema } from '../domain/cpu.js';
import { diskSchema, partitionSchema, stackNodeFieldsSchema } from '../domain/device.js';
import { healthSchema } from '../domain/health.js';
import { overProvisioningSchema } from '../domain/over-provisioning.js';
import { spaceSchema } from '../domain/space.js';
import { NO_LINUX_SECTIONS, storageModelOf, type ModelStackNode } from '../analyses/storage-model.js';
import {
  ENCRYPTION_KIND_LABELS,
  type ConversionState,
  type EncryptionState,
  type StorageModel,
} from '../domain/storage-model.js';
import {
  encryptedPlacesOf,
  isDataVolume,
  type EncryptedPlace,
  summariseStorageModel,
  type StorageSummary,
} from '../analyses/storage-summary.js';
import { discardPassthroughSchema } from '../domain/trim.js';
import { planSchema } from '../plan/plan.js';
import {
  KNOWN_TOOL_VERSIONS,
  WORN_PERCENT_USED,
  FLEET_ISSUES,
  FLEET_ISSUE_LABELS,
  type FleetIssue,
  type FleetMethod,
  type FleetPolicy,
  type Readiness,
  type FleetRow,
  type FleetReport,
  type FleetTotals,
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
  platform: null,
  duplicateOf: null,
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
  protectionOff: false,
  methodMismatch: false,
  encryptionUnknown: false,
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
  encryptionMethod: null,
  protectionOn: null,
  conversionInProgress: null,
  percentEncrypted: null,
  keySlots: null,
  keySlotsBeyondZero: null,
  tpmProtector: null,
  recoveryKeyEscrowed: null,
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
  protection: null,
  conversion: null,
  passphraseOutsideSlot0: null,
  spansDisks: null,
  otherDisks: null,
  discardsStopAt: null,
  reclaimableBytes: null,
  fileLevelEncryption: null,
} satisfies Omit<FleetRow, 'source' | 'machine' | 'documentStatus' | 'readiness'>;

/** The fields every envelope has, read loosely so a document of another version can still be described. */
const headerSchema = z.object({
  schema: z.string(),
  schemaVersion: z.tuple([z.number().int(), z.number().int()]),
  toolVersion: z.string(),
});
type Header = z.infer<typeof headerSchema>;

/**
 * The part of an assessment the fleet report reads, validated with the assessment's own schemas (picked, not
 * restated): the sections a row is made of. The rest of a document (tools, stack, partitions, the plan's
 * reasons and commands, …) is not validated here: checking 100,000 documents in full cost more than reading
 * them, for columns nobody sees. `encplan assess` validated those parts when it wrote them.
 */
const discardPathSchema = discardPassthroughSchema.shape.paths.element;
const fleetResultSchema = assessmentResultSchema
  .pick({
    target: true,
    encryption: true,
    findings: true,
    platformStorage: true,
    storage: true,
  })
  .extend({
    // The disk and discard paths as a row and the model read them (analyses/storage-model.ts ModelDisk,
    // ModelDiscardPaths): in a CPU profile of 4,000 Linux documents their whole sections were the costliest picks.
    disk: diskSchema.pick({ path: true, model: true, sizeBytes: true, transport: true }).nullable(),
    health: healthSchema.pick({ verdict: true, percentageUsed: true }).nullable(),
    discardPassthrough: z
      .object({
        paths: z.array(
          discardPathSchema
            .pick({ topPath: true, passesToDisk: true, firstBlockingLayer: true, fix: true })
            .extend({
              layers: z.array(
                discardPathSchema.shape.layers.element.pick({
                  path: true,
                  passesDiscards: true,
                  blocksHere: true,
                }),
              ),
            }),
        ),
      })
      .nullable(),
    overProvisioning: overProvisioningSchema.pick({ status: true }).nullable(),
    machine: machineSchema.pick({ cpuModel: true, cryptoFlags: true }).nullable(),
    plan: planSchema
      .pick({ settings: true, healthGate: true })
      .extend({ commands: z.array(z.unknown()) })
      .nullable(),
  });
type AssessmentResult = z.infer<typeof fleetResultSchema>;
type AssessmentPlan = NonNullable<AssessmentResult['plan']>;

/** What the report reads of the two documents it accepts. */
const FLEET_ENVELOPES = {
  [assessmentDocument.name]: envelopeSchema(assessmentDocument.name, fleetResultSchema),
  [machineAssessmentDocument.name]: envelopeSchema(
    machineAssessmentDocument.name,
    z.object({
      disks: z.array(
        z.object({
          device: z.string(),
          status: z.enum(['ok', 'partial', 'error']),
          assessment: fleetResultSchema.nullable(),
          error: z.object({ code: z.string(), message: z.string() }).nullable(),
        }),
      ),
    }),
  ),
};

/**
 * The Linux sections the storage model is made from, read only from a Linux document written before the model
 * joined the contract (assessment 1.0–1.2: no `storage`), validated with the assessment's own schemas picked to
 * the fields the model reads (analyses/storage-model.ts ModelStackNode, ModelPartition, ModelFilesystemUse).
 * Newer documents carry the model; their sections are not read for it. The stack is validated node by node
 * (legacyStackOf), not with the recursive `stackNodeSchema`: zod tracks reference cycles on every object of a
 * recursive schema's parse, which made this parse cost more than building the model (docs/performance.md).
 */
const legacyLinuxSchema = assessmentResultSchema.pick({ media: true }).extend({
  partitions: z
    .array(partitionSchema.pick({ path: true, number: true, typeId: true, sizeBytes: true }))
    .nullable(),
  stack: z.unknown(),
  space: spaceSchema.pick({ nvme: true }).nullable(),
  overProvisioning: z
    .object({
      filesystems: z.array(
        overProvisioningSchema.shape.filesystems.element.pick({ mountpoint: true, usedBytes: true }),
      ),
    })
    .nullable(),
});

/** One stack node's fields the model reads; its children are validated as the walk reaches them. */
const legacyStackNodeSchema = stackNodeFieldsSchema
  .pick({ path: true, type: true, sizeBytes: true, mapperName: true, dmUuid: true, mountpoints: true })
  .extend({
    filesystem: stackNodeFieldsSchema.shape.filesystem.unwrap().pick({ type: true, label: true }).nullable(),
    children: z.array(z.unknown()),
  });

/** A legacy document's stack as the model reads it, or undefined when a node does not match. */
function legacyStackOf(raw: unknown): ModelStackNode | undefined {
  const node = legacyStackNodeSchema.safeParse(raw);
  if (!node.success) {
    return undefined;
  }
  const children: ModelStackNode[] = [];
  for (const child of node.data.children) {
    const read = legacyStackOf(child);
    if (read === undefined) {
      return undefined;
    }
    children.push(read);
  }
  return { ...node.data, children };
}

/** The local fact the Ansible collection writes (encplan.fact): `{"assessments": [envelope, …]}`. */
const factSchema = z.object({ assessments: z.array(z.unknown()) });

/** The documents this report reads, with the schema major version it understands. */
const READABLE = [assessmentDocument, machineAssessmentDocument] as const;

const READINESS_ORDER: readonly Readiness[] = [
  'fix-first',
  'not-assessed',
  'no-plan',
  'ready',
  'already-encrypted',
];

/**
 * `encplan fleet report`, one document at a time: `add` turns a document into its rows (one per disk) and
 * counts them; `totals` gives the counts once every document was added. What it keeps per row is its machine
 * and disk (for the machine count and to flag a repeated disk), so a fleet of any size is reported in constant
 * memory per row, never holding a document after its rows were made. Pure: the documents are already read.
 */
export class FleetReportBuilder {
  private documents = 0;
  private unusable = 0;
  private readonly machines = new Set<string>();
  /** machine + disk → the source of its first row. */
  private readonly seenDisks = new Map<string, string>();
  private readonly repeatedDisks = new Set<string>();
  private readonly readiness = new Map<Readiness, number>();
  private readonly issues = new Map<FleetIssue, number>();
  private readonly platforms = { linux: 0, darwin: 0, win32: 0 };
  private fileLevelOnly = 0;
  private readonly versions = new Map<string, FleetReport['versions'][number]>();

  constructor(private readonly policy: FleetPolicy = { methods: [] }) {}

  /** The rows of one document (several for `assess --all` documents and Ansible local facts). */
  add(document: FleetDocument): FleetRow[] {
    this.documents += 1;
    // Tool strings (models, messages) enter the fleet views here, control characters escaped (report/printable.ts).
    const rows = printableData(
      classifyDocument(document, this.policy, (header) => this.countVersion(header)),
    );
    return rows.map((row) => this.count(row));
  }

  /** The counts over every row added so far. */
  totals(): FleetTotals {
    const count = (readiness: Readiness) => this.readiness.get(readiness) ?? 0;
    return {
      summary: {
        documents: this.documents,
        machines: this.machines.size,
        ready: count('ready'),
        fixFirst: count('fix-first'),
        alreadyEncrypted: count('already-encrypted'),
        noPlan: count('no-plan'),
        notAssessed: count('not-assessed'),
        unusable: this.unusable,
        disks: READINESS_ORDER.reduce((sum, readiness) => sum + count(readiness), 0),
        duplicateDisks: this.repeatedDisks.size,
        platforms: { ...this.platforms },
        fileLevelOnly: this.fileLevelOnly,
      },
      issueCounts: FLEET_ISSUES.map((issue) => ({
        issue,
        label: FLEET_ISSUE_LABELS[issue],
        count: this.issues.get(issue) ?? 0,
      })),
      versions: [...this.versions.values()].sort(
        (a, b) =>
          a.schema.localeCompare(b.schema) ||
          a.schemaVersion.localeCompare(b.schemaVersion) ||
          a.toolVersion.localeCompare(b.toolVersion),
      ),
      policy: { methods: [...this.policy.methods] },
    };
  }

  private count(row: FleetRow): FleetRow {
    this.machines.add(row.machine);
    if (row.documentStatus !== 'valid' && row.documentStatus !== 'unknown-tool-version') {
      this.unusable += 1;
    }
    let counted = row;
    if (row.disk !== null) {
      const key = `${row.machine}\u0000${row.disk}`;
      const first = this.seenDisks.get(key);
      if (first === undefined) {
        this.seenDisks.set(key, row.source);
      } else {
        this.repeatedDisks.add(key);
        counted = { ...row, duplicateOf: first };
      }
    }
    if (counted.duplicateOf !== null) {
      return counted;
    }
    this.readiness.set(row.readiness, (this.readiness.get(row.readiness) ?? 0) + 1);
    if (row.platform !== null) {
      this.platforms[row.platform] += 1;
    }
    if (isFileLevelOnly(row)) {
      this.fileLevelOnly += 1;
    }
    for (const issue of issuesOf(row)) {
      this.issues.set(issue, (this.issues.get(issue) ?? 0) + 1);
    }
    return counted;
  }

  private countVersion(header: Header): void {
    const schemaVersion = header.schemaVersion.join('.');
    const key = `${header.schema}\u0000${schemaVersion}\u0000${header.toolVersion}`;
    const entry = this.versions.get(key) ?? {
      schema: header.schema,
      schemaVersion,
      toolVersion: header.toolVersion,
      documents: 0,
      supported:
        READABLE.some(
          (readable) => header.schema === readable.name && header.schemaVersion[0] === readable.version[0],
        ) && KNOWN_TOOL_VERSIONS.includes(header.toolVersion),
    };
    this.versions.set(key, { ...entry, documents: entry.documents + 1 });
  }
}

/**
 * A disk whose only encryption is file by file (an fscrypt or eCryptfs home): no full-disk encryption, so it
 * is never counted as encrypted, and the summary counts it on its own.
 */
export function isFileLevelOnly(row: Pick<FleetRow, 'fileLevelEncryption' | 'existingEncryption'>): boolean {
  return row.fileLevelEncryption !== null && row.existingEncryption === null;
}

/** A row's issue ids (the `issues` column, split). */
export function issuesOf(row: Pick<FleetRow, 'issues'>): FleetIssue[] {
  return row.issues === '' ? [] : (row.issues.split(';') as FleetIssue[]);
}

/**
 * The whole report in memory, rows sorted by readiness, machine and disk: for a few documents (the tests check
 * the streamed output against it). `encplan fleet report` streams instead (node/fleet-report-stream.ts), rows in
 * the order read.
 */
export function buildFleetReport(
  documents: readonly FleetDocument[],
  policy: FleetPolicy = { methods: [] },
): FleetReport {
  const builder = new FleetReportBuilder(policy);
  const rows = documents.flatMap((document) => builder.add(document));
  rows.sort(
    (a, b) =>
      READINESS_ORDER.indexOf(a.readiness) - READINESS_ORDER.indexOf(b.readiness) ||
      a.machine.localeCompare(b.machine) ||
      (a.disk ?? '').localeCompare(b.disk ?? ''),
  );
  return { ...builder.totals(), rows };
}

function unusableRow(
  source: string,
  machine: string,
  documentStatus: FleetRow['documentStatus'],
  code: string,
  message: string,
  header?: Header,
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

function classifyDocument(
  document: FleetDocument,
  policy: FleetPolicy,
  countVersion: (header: Header) => void,
): FleetRow[] {
  const { source, machine } = document;
  const unusable = (
    status: FleetRow['documentStatus'],
    code: string,
    message: string,
    header?: Header,
  ): FleetRow[] => [unusableRow(source, machine, status, code, message, header)];
  if ('error' in document) {
    return unusable('invalid', document.error.code, document.error.message);
  }
  const header = headerSchema.safeParse(document.json);
  if (!header.success) {
    const fact = factSchema.safeParse(document.json);
    if (fact.success) {
      return fact.data.assessments.flatMap((json) =>
        classifyDocument({ source, machine, json }, policy, countVersion),
      );
    }
    return unusable(
      'not-an-assessment',
      'DOCUMENT_INVALID',
      'Not an encplan envelope (no schema, schemaVersion and toolVersion).',
    );
  }
  countVersion(header.data);
  const readable = READABLE.find((candidate) => candidate.name === header.data.schema);
  if (readable === undefined) {
    return unusable(
      'not-an-assessment',
      'DOCUMENT_INVALID',
      `An ${header.data.schema} document, not ${READABLE.map((candidate) => candidate.name).join(' or ')}.`,
      header.data,
    );
  }
  if (header.data.schemaVersion[0] !== readable.version[0]) {
    return unusable(
      'unsupported-schema-version',
      'SCHEMA_VERSION_UNSUPPORTED',
      `${readable.name} schema ${header.data.schemaVersion.join('.')} from encplan ${header.data.toolVersion}; this encplan reads ${String(readable.version[0])}.x. Re-run that machine with this release.`,
      header.data,
    );
  }
  const parsed = FLEET_ENVELOPES[readable.name].safeParse(document.json);
  if (!parsed.success) {
    const message = z.prettifyError(parsed.error).split('\n').slice(0, 6).join(' ');
    return unusable(
      'invalid',
      'DOCUMENT_INVALID',
      `Does not match the ${readable.name} schema: ${message}`,
      header.data,
    );
  }
  const envelope = parsed.data;
  // The result as read, for the Linux sections of a document that carries no storage model (modelOf).
  const rawResult = (document.json as { result?: unknown }).result;
  const documentStatus = KNOWN_TOOL_VERSIONS.includes(envelope.toolVersion)
    ? 'valid'
    : 'unknown-tool-version';
  const base = {
    source,
    machine,
    documentStatus,
    ...EMPTY_ROW_FIELDS,
    schemaVersion: envelope.schemaVersion.join('.'),
    toolVersion: envelope.toolVersion,
    generatedAt: envelope.generatedAt,
  } as const;
  if (envelope.schema === assessmentDocument.name) {
    const single = envelope;
    if (single.result === null) {
      return [failedRow(base, single.status, null, single.error)];
    }
    return [assessmentRow(base, single.status, single.result, rawResult, policy)];
  }
  const machineEnvelope = envelope;
  if (machineEnvelope.result === null) {
    return [failedRow(base, machineEnvelope.status, null, machineEnvelope.error)];
  }
  // `assess --all`: one row per disk; a disk that failed is a not-assessed row with its own error.
  const rawDisks = (rawResult as { disks?: readonly { assessment?: unknown }[] } | undefined)?.disks;
  return machineEnvelope.result.disks.map((disk, index) =>
    disk.assessment === null
      ? failedRow(base, disk.status, disk.device, disk.error)
      : assessmentRow(base, disk.status, disk.assessment, rawDisks?.[index]?.assessment, policy),
  );
}

type RowBase = Omit<FleetRow, 'readiness' | 'assessmentStatus'>;

function failedRow(
  base: RowBase,
  status: FleetRow['assessmentStatus'],
  disk: string | null,
  error: { readonly code: string; readonly message: string } | null,
): FleetRow {
  return {
    ...base,
    assessmentStatus: status,
    readiness: 'not-assessed',
    disk,
    errorCode: error?.code ?? null,
    errorMessage: error?.message ?? null,
  };
}

/** One encryption of the disk in the fleet's words, whatever platform reported it. */
interface FleetVolume {
  readonly path: string;
  readonly description: string;
  readonly method: string | null;
  readonly protectionOn: boolean | null;
  readonly conversionInProgress: boolean | null;
  readonly percentEncrypted: number | null;
  /** LUKS key slots with their KDF and tokens; null for other formats. */
  readonly keySlots: readonly KeySlot[] | null;
  /** Every key slot or protector read (LUKS keyslots, BitLocker protectors); empty when none was read. */
  readonly protectors: readonly KeySlot[];
  /** LUKS1: no tokens in the header (a clevis binding lives in luksmeta, which is not read). */
  readonly luks1: boolean;
  /** It protects data (false: an APFS system volume such as VM or Preboot; analyses/storage-summary.ts). */
  readonly holdsData: boolean;
}
type KeySlot = EncryptionState['keySlots'][number];

/** The disk facts a fleet row shows: the storage model, whatever platform wrote it. */
interface FleetDiskFacts {
  readonly platform: 'linux' | 'darwin' | 'win32';
  readonly model: string | null;
  readonly transport: string | null;
  readonly sizeBytes: number | null;
  readonly healthVerdict: string | null;
  readonly wearPercentUsed: number | null;
  /** smartctl (Linux: the `health` section) or the platform's relayed status (the model's disk.health). */
  readonly healthFrom: 'smartctl' | 'platform';
  readonly cpuHasAes: boolean | null;
  readonly volumes: readonly FleetVolume[];
  /** Why the encryption state could not be read; null when it was. */
  readonly encryptionUnknown: string | null;
  /** FileVault for the whole Mac: encrypting or decrypting is a conversion under way. */
  readonly fileVault: StorageModel['fileVault'];
  readonly summary: StorageSummary;
  readonly reclaim: StorageModel['reclaim'];
  /** Whether LUKS2 tokens were read (assessment 1.3 and later); before, a token bound to a slot is unknown. */
  readonly tokensRead: boolean;
  /**
   * The spare-area verdict: Linux's over-provisioning analysis (unallocated space, NVMe unallocated capacity,
   * trimmed free space); `not-measurable` on macOS and Windows, whose probes read none of those.
   */
  readonly spareAreaStatus: string | null;
  /** Where discards stop on their way to the drive, with the fix when one is known. */
  readonly discardStops: readonly DiscardStop[];
  /** Why an existing encryption is weaker than the plan (empty: it is not, or cannot be compared). */
  readonly weakerThanPlan: readonly string[];
  /** Folders encrypted file by file (fscrypt, eCryptfs), "fscrypt /home/alice": no full-disk encryption. */
  readonly fileLevel: readonly string[];
}

/** One place discards stop: a Linux layer (discardPassthrough) or Windows itself (fsutil DisableDeleteNotify). */
interface DiscardStop {
  /** The volume or stack top whose discards stop ("/dev/mapper/root", "C:"). */
  readonly path: string;
  /** Where they stop: a layer id, or the operating system. */
  readonly at: string;
  readonly fix: string | null;
}

/** Spare area on a platform whose probes do not measure it (docs/fleet.md). */
const SPARE_AREA_NOT_MEASURABLE = 'not-measurable';

/**
 * Where discards stop: Linux's discard paths; on Windows, the operating system itself when fsutil says
 * DisableDeleteNotify is 1 for NTFS on an SSD (Microsoft Learn, "fsutil behavior": 0 sends TRIM). macOS's
 * system_profiler "TRIM Support" does not tell the drive from the OS, so nothing is said there.
 */
function discardStopsOf(model: StorageModel, result: AssessmentResult): DiscardStop[] {
  if (model.platform === 'linux') {
    return (result.discardPassthrough?.paths ?? [])
      .filter((path) => path.passesToDisk === false)
      .map((path) => ({ path: path.topPath, at: path.firstBlockingLayer ?? 'a layer', fix: path.fix }));
  }
  const trim = model.disk.trim ?? null;
  if (model.platform === 'win32' && model.disk.medium === 'ssd' && trim?.osSends === false) {
    return [
      {
        path: model.disk.id,
        at: 'Windows (DisableDeleteNotify = 1)',
        fix: 'fsutil behavior set DisableDeleteNotify 0',
      },
    ];
  }
  return [];
}

/** Whether a conversion is under way (paused counts: the volume is not fully converted); null when not told. */
function converting(conversion: ConversionState | null): boolean | null {
  if (conversion === null || conversion === 'unknown') {
    return null;
  }
  return !['complete', 'used-space-only', 'decrypted'].includes(conversion);
}

/**
 * The storage model of an assessment: the one the document carries (assessment 1.3 and later; rebuilt from the
 * deprecated `platformStorage` of macOS/Windows documents before 1.4 by storageModelOf), else the one its Linux
 * sections give (documents before 1.3, validated here only then). Null when it has neither.
 */
function modelOf(result: AssessmentResult, raw: unknown): StorageModel | null {
  if (result.storage !== undefined || result.platformStorage !== undefined) {
    return storageModelOf({
      ...NO_LINUX_SECTIONS,
      platformStorage: result.platformStorage,
      storage: result.storage,
    });
  }
  const legacy = legacyLinuxSchema.safeParse(raw);
  if (!legacy.success) {
    return null;
  }
  const stack = legacy.data.stack === null ? null : legacyStackOf(legacy.data.stack);
  if (stack === undefined) {
    return null;
  }
  // The disk, the inventory and the discard paths were validated with the row's sections.
  return storageModelOf({
    ...legacy.data,
    stack,
    disk: result.disk,
    encryption: result.encryption,
    discardPassthrough: result.discardPassthrough,
  });
}

/**
 * THE adapter from any assessment (Linux, macOS, Windows; any contract version) to the fleet's disk facts: the
 * storage model. Beside it only what the model leaves to other sections on Linux: smartctl's reading (`health`)
 * and the CPU's flags (`machine`), where the model holds the platform's relay of them on macOS and Windows.
 */
function fleetFactsOf(result: AssessmentResult, raw: unknown): FleetDiskFacts | null {
  const model = modelOf(result, raw);
  if (model === null) {
    return null;
  }
  const { disk } = model;
  const platformHealth = disk.health ?? null;
  const places = encryptedPlacesOf(model);
  const systemVolumes = new Set(
    model.volumes.filter((volume) => !isDataVolume(volume)).map((volume) => volume.id),
  );
  return {
    platform: model.platform,
    model: disk.model === '' ? null : disk.model,
    transport: disk.bus,
    sizeBytes: disk.sizeBytes,
    healthVerdict: platformHealth?.verdict ?? result.health?.verdict ?? null,
    wearPercentUsed: platformHealth?.wearPercent ?? result.health?.percentageUsed ?? null,
    healthFrom: platformHealth === null && result.health !== null ? 'smartctl' : 'platform',
    cpuHasAes: model.cpu?.aes ?? result.machine?.cryptoFlags.aes ?? null,
    encryptionUnknown: model.encryptionUnknown,
    fileVault: model.fileVault ?? null,
    summary: summariseStorageModel(model, places),
    reclaim: model.reclaim,
    // LUKS2 headers carry `tokens` from assessment 1.3 on (an empty list when none), other formats never.
    tokensRead:
      result.storage !== undefined ||
      (result.encryption?.found ?? []).some((found) => found.tokens !== undefined),
    spareAreaStatus:
      model.platform === 'linux' ? (result.overProvisioning?.status ?? null) : SPARE_AREA_NOT_MEASURABLE,
    discardStops: discardStopsOf(model, result),
    weakerThanPlan: places.flatMap((place) => weakerThanPlan(place, result.plan, result.encryption)),
    // encryptedPlacesOf lists block encryption only: a file-level layer is named here, never as encrypted.
    fileLevel: model.layers.flatMap((layer) =>
      layer.encryption?.scope === 'file'
        ? [`${ENCRYPTION_KIND_LABELS[layer.encryption.kind]} ${layer.id}`]
        : [],
    ),
    volumes: places.map(({ id, state }) => ({
      path: id,
      description: [
        opalLabelOf(state) ?? state.kind,
        state.cipher,
        state.keyBits === null ? null : `${String(state.keyBits)}-bit`,
        ...(hasLuksKeyslots(state.kind) ? new Set(state.keySlots.map((slot) => slot.type)) : []),
        state.conversion,
      ]
        .filter((part) => part !== null)
        .join(' '),
      method: methodOf(state, model.platform),
      protectionOn: state.protection === 'unknown' ? null : state.protection === 'on',
      conversionInProgress: converting(state.conversion),
      percentEncrypted: state.percentEncrypted,
      keySlots: hasLuksKeyslots(state.kind) ? state.keySlots : null,
      protectors: state.keySlots,
      luks1: state.kind === 'luks1',
      holdsData: !systemVolumes.has(id),
    })),
  };
}

/**
 * What a LUKS2 header on OPAL is called in the fleet row ("LUKS2 + OPAL", "OPAL only (hardware)": its target's
 * recognition), or null for any other encryption.
 */
function opalLabelOf(state: EncryptionState): string | null {
  const recognised = recogniseLuks2Segment(state.opal?.segmentType);
  return recognised === null ? null : (recognised.segment?.label ?? `${state.kind} on OPAL`);
}

/**
 * An encryption's method as a FLEET_METHODS id: BitLocker's method and key size (manage-bde "XTS-AES 128"), or a
 * dm-crypt cipher spec and key size, XTS halving the key (cryptsetup(8) --key-size). A dm-crypt cipher outside
 * the vocabulary is shown as it is; another platform's wording outside it (FileVault's "AES-XTS" without a key
 * size) is unknown. The drive's encryption alone (BitLocker hardware mode, LUKS2 made with cryptsetup
 * --hw-opal-only) is "hardware"; LUKS2 with --hw-opal is its dm-crypt cipher, which encrypts on top.
 */
function methodOf(state: EncryptionState, platform: StorageModel['platform']): string | null {
  const { cipher, keyBits } = state;
  if (
    cipher === 'hardware' ||
    recogniseLuks2Segment(state.opal?.segmentType)?.segment?.softwareEncryption === false
  ) {
    return 'hardware';
  }
  if ((cipher === 'xts-aes' || cipher === 'aes-cbc') && keyBits !== null) {
    return `${cipher}-${String(keyBits)}`;
  }
  if (cipher === null || platform !== 'linux') {
    return null;
  }
  if (cipher.startsWith('aes-xts') && keyBits !== null) {
    return `xts-aes-${String(keyBits / 2)}`;
  }
  if (cipher.startsWith('aes-cbc') && keyBits !== null) {
    return `aes-cbc-${String(keyBits)}`;
  }
  if (cipher.startsWith('xchacha') && cipher.includes('adiantum')) {
    return 'adiantum';
  }
  return cipher;
}

/** true when every value is true, false when one is false, null when none is known and none is false. */
function allOf(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(false)) {
    return false;
  }
  return values.length > 0 && values.every((value) => value === true) ? true : null;
}

/** true when one value is true, false when all are false, else null. */
function anyOf(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(true)) {
    return true;
  }
  return values.length > 0 && values.every((value) => value === false) ? false : null;
}

/**
 * LUKS2 token types that bind no TPM: systemd-cryptenroll(1) writes `systemd-fido2` (--fido2-device),
 * `systemd-pkcs11` (--pkcs11-token-uri) and `systemd-recovery` (--recovery-key); its TPM binding is
 * `systemd-tpm2` (--tpm2-device). Any other type (clevis, whose pin may be tpm2 or tang: clevis-luks-bind(1))
 * leaves the answer unknown.
 */
const NON_TPM_TOKENS = new Set(['systemd-fido2', 'systemd-pkcs11', 'systemd-recovery']);

/**
 * A TPM protects a key of the disk: a BitLocker protector of a TPM type (manage-bde -protectors: "TPM", "TPM And
 * PIN"; Get-BitLockerVolume KeyProtectorType Tpm, TpmPin, …) or a `systemd-tpm2` LUKS2 token. False only when
 * every encryption's protectors were read, with their tokens, and none is a TPM; else null, never guessed.
 */
function tpmProtectorOf(facts: FleetDiskFacts): boolean | null {
  const slots = facts.volumes.flatMap((volume) => volume.protectors);
  if (slots.some((slot) => /tpm/i.test(slot.type) || slot.tokens.some((token) => /tpm2/.test(token)))) {
    return true;
  }
  const allRead =
    facts.volumes.length > 0 &&
    facts.volumes.every(
      (volume) =>
        volume.protectors.length > 0 && (volume.keySlots === null || (!volume.luks1 && facts.tokensRead)),
    );
  const unknownTokens = slots.some((slot) => slot.tokens.some((token) => !NON_TPM_TOKENS.has(token)));
  return allRead && !unknownTokens ? false : null;
}

/** The readiness columns (policy, protection, conversion, key slots, TPM, layers) of a disk. */
function readinessColumns(facts: FleetDiskFacts, policy: FleetPolicy) {
  const volumes = facts.volumes;
  const methods = [...new Set(volumes.map((volume) => volume.method))];
  const knownMethods = methods.filter((method): method is string => method !== null);
  const offPolicy =
    policy.methods.length === 0
      ? []
      : knownMethods.filter((method) => !policy.methods.includes(method as FleetMethod));
  const fileVaultConverting =
    facts.fileVault === 'encrypting' || facts.fileVault === 'decrypting'
      ? true
      : facts.fileVault === 'on' || facts.fileVault === 'off'
        ? false
        : null;
  const slots = volumes.flatMap((volume) =>
    volume.keySlots === null ? [] : volume.keySlots.map((slot) => ({ ...slot, path: volume.path })),
  );
  const luks = volumes.some((volume) => volume.keySlots !== null);
  const percents = volumes
    .map((volume) => volume.percentEncrypted)
    .filter((percent): percent is number => percent !== null);
  const { summary } = facts;
  return {
    encryptionMethod: knownMethods.length === 0 ? null : knownMethods.join(';'),
    offPolicy,
    // Over the encryptions that protect data: a Mac's VM volume without FileVault is no unprotected data.
    protectionOn: allOf(volumes.filter((volume) => volume.holdsData).map((volume) => volume.protectionOn)),
    // FileVault's own state counts only where fdesetup told it (null on Windows and Linux).
    conversionInProgress:
      volumes.length === 0
        ? fileVaultConverting === true
          ? true
          : null
        : anyOf([
            ...volumes.map((volume) => volume.conversionInProgress),
            ...(fileVaultConverting === null ? [] : [fileVaultConverting]),
          ]),
    percentEncrypted: percents.length === 0 ? null : Math.min(...percents),
    keySlots: luks
      ? slots
          .map(
            (slot) =>
              `${volumes.length > 1 ? `${slot.path}#` : ''}${slot.id}:${[slot.type, ...slot.tokens].join('+')}`,
          )
          .join(' ')
      : null,
    keySlotsBeyondZero: luks ? slots.some((slot) => slot.id !== '0') : null,
    tpmProtector: tpmProtectorOf(facts),
    protection: summary.protection,
    conversion: summary.conversion,
    // Slot 0 holding a plain keyslot says nothing when the tokens bound to it were not read.
    passphraseOutsideSlot0:
      summary.passphraseOutsideSlot0 === false && !facts.tokensRead ? null : summary.passphraseOutsideSlot0,
    spansDisks: summary.spansDisks,
    otherDisks: summary.otherDisks === null ? null : summary.otherDisks.join(';'),
    discardsStopAt:
      facts.reclaim !== null && facts.reclaim.blockedAt.length > 0
        ? facts.reclaim.blockedAt.join(';')
        : facts.platform === 'win32' && facts.discardStops.length > 0
          ? facts.discardStops.map((stop) => stop.at).join(';')
          : null,
    reclaimableBytes: summary.reclaimableBytes,
  };
}

/** What protection off means and how it is turned back on, per platform. */
const PROTECTION_OFF_FIX: Readonly<Record<FleetDiskFacts['platform'], string>> = {
  win32: 'the key is stored in the clear until it is resumed (manage-bde -protectors -enable).',
  // Apple Platform Security guide, "Volume encryption with FileVault in macOS"; fdesetup(8) enable.
  darwin:
    'encrypted at rest, but without FileVault its key is protected only by the hardware (fdesetup enable).',
  linux: 'the key is stored in the clear.',
};

/**
 * The volumes whose protection is off, and what that means: "C: has protection off: …", never "on C:: …" (a
 * Windows volume's name ends with a colon).
 */
function protectionOffDetail(paths: readonly string[], platform: FleetDiskFacts['platform']): string {
  return `${paths.join(', ')} ${paths.length === 1 ? 'has' : 'have'} protection off: ${PROTECTION_OFF_FIX[platform]}`;
}

function assessmentRow(
  base: RowBase,
  status: FleetRow['assessmentStatus'],
  result: AssessmentResult,
  raw: unknown,
  policy: FleetPolicy,
): FleetRow {
  const facts = fleetFactsOf(result, raw);
  if (facts === null) {
    return failedRow(base, status, result.target.path, {
      code: 'DOCUMENT_INVALID',
      message: 'The assessment has neither a storage model nor the Linux sections to make one from.',
    });
  }
  const plan = result.plan;
  const columns = readinessColumns(facts, policy);
  const found = findIssues(facts, result);
  const encrypted = facts.volumes.length > 0;
  if (encrypted && columns.protectionOn === false) {
    found.set(
      'protection-off',
      protectionOffDetail(
        facts.volumes
          .filter((volume) => volume.holdsData && volume.protectionOn === false)
          .map((volume) => volume.path),
        facts.platform,
      ),
    );
  }
  if (columns.offPolicy.length > 0) {
    found.set(
      'method-mismatch',
      `Encrypted with ${columns.offPolicy.join(', ')}; the policy requires ${policy.methods.join(' or ')}.`,
    );
  }
  const issues = FLEET_ISSUES.filter((issue) => found.has(issue));
  const has = (issue: FleetIssue) => found.has(issue);
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
    assessmentStatus: status,
    readiness,
    disk: result.target.path,
    platform: facts.platform,
    issues: issues.join(';'),
    driveFailing: has('drive-failing'),
    driveWorn: has('drive-worn'),
    aesUnaccelerated: has('aes-unaccelerated'),
    discardsBlocked: has('discards-blocked'),
    noSpareArea: has('no-spare-area'),
    encryptedWeaker: has('encrypted-weaker'),
    protectionOff: has('protection-off'),
    methodMismatch: has('method-mismatch'),
    encryptionUnknown: has('encryption-unknown'),
    issueDetails: issues.map((issue) => found.get(issue)).join(' | '),
    model: facts.model,
    transport: facts.transport,
    sizeBytes: facts.sizeBytes,
    healthVerdict: facts.healthVerdict,
    wearPercentUsed: facts.wearPercentUsed,
    healthGate: plan?.healthGate.status ?? null,
    cpuModel: result.machine?.cpuModel ?? null,
    cpuHasAes: facts.cpuHasAes,
    existingEncryption: encrypted
      ? facts.volumes
          // `C:` already ends with a colon: no `C::`.
          .map((volume) => `${volume.path}${volume.path.endsWith(':') ? '' : ':'} ${volume.description}`)
          .join('; ')
      : null,
    encryptionMethod: columns.encryptionMethod,
    protectionOn: columns.protectionOn,
    conversionInProgress: columns.conversionInProgress,
    percentEncrypted: columns.percentEncrypted,
    keySlots: columns.keySlots,
    keySlotsBeyondZero: columns.keySlotsBeyondZero,
    tpmProtector: columns.tpmProtector,
    spareAreaStatus: facts.spareAreaStatus,
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
    protection: columns.protection,
    conversion: columns.conversion,
    passphraseOutsideSlot0: columns.passphraseOutsideSlot0,
    spansDisks: columns.spansDisks,
    otherDisks: columns.otherDisks,
    discardsStopAt: columns.discardsStopAt,
    reclaimableBytes: columns.reclaimableBytes,
    fileLevelEncryption: facts.fileLevel.length === 0 ? null : facts.fileLevel.join('; '),
  };
}

/**
 * Each issue the assessment shows, with one sentence saying why (in FLEET_ISSUES order), on every platform:
 * health and wear as smartctl or the platform reports them, AES, and the Linux-only readings (discard paths,
 * spare area, the KDF parameters of existing LUKS keyslots), which are null on macOS and Windows.
 */
function findIssues(facts: FleetDiskFacts, result: AssessmentResult): Map<FleetIssue, string> {
  const issues = new Map<FleetIssue, string>();
  const gate = result.plan?.healthGate ?? null;
  const smart = facts.healthFrom === 'smartctl';
  const wear = facts.wearPercentUsed;
  if (facts.healthVerdict === 'failing' || gate?.effectiveVerdict === 'failing') {
    issues.set(
      'drive-failing',
      gate?.reason ??
        (smart ? 'SMART says the drive is failing.' : 'The platform reports the drive as failing.'),
    );
  }
  if (wear !== null && wear >= WORN_PERCENT_USED) {
    issues.set(
      'drive-worn',
      `${smart ? 'SMART percentage used' : 'Wear'} is ${String(wear)} % (worn from ${String(WORN_PERCENT_USED)} %).`,
    );
  }
  const kernelFinding = result.findings.find((finding) => finding.id === 'kernel-aes-unaccelerated');
  const cpu = result.machine?.cpuModel ?? 'unknown';
  if (kernelFinding !== undefined) {
    issues.set('aes-unaccelerated', kernelFinding.message);
  } else if (facts.cpuHasAes === false && result.machine === null) {
    issues.set('aes-unaccelerated', 'The CPU has no AES instructions.');
  } else if (facts.cpuHasAes === false && result.plan?.settings.cipher.startsWith('aes') === true) {
    issues.set(
      'aes-unaccelerated',
      `The CPU (${cpu}) has no AES instructions, yet the plan uses ${result.plan.settings.cipher}.`,
    );
  } else if (facts.cpuHasAes === false) {
    issues.set(
      'aes-unaccelerated',
      `The CPU (${cpu}) has no AES instructions; the plan uses ${result.plan?.settings.cipher ?? 'no cipher yet'}.`,
    );
  }
  const blocked = facts.discardStops;
  if (blocked.length > 0) {
    const reclaimable = facts.summary.reclaimableBytes;
    const unknownReason = facts.reclaim?.unknownReason ?? null;
    issues.set(
      'discards-blocked',
      `${blocked
        .map(
          (stop) =>
            `${stop.path}: discards stop at ${stop.at}${stop.fix === null ? '' : ` (fix: ${stop.fix})`}`,
        )
        .join('; ')}${
        reclaimable !== null
          ? `; the drive could get back ${formatBytes(reclaimable)} once they pass`
          : unknownReason === null
            ? ''
            : `; what the drive could get back is unknown: ${unknownReason}`
      }`,
    );
  }
  if (facts.spareAreaStatus === 'none') {
    issues.set('no-spare-area', 'No unallocated or trimmed space can serve the drive as spare area.');
  }
  if (facts.weakerThanPlan.length > 0) {
    issues.set('encrypted-weaker', facts.weakerThanPlan.join('; '));
  }
  if (facts.encryptionUnknown !== null) {
    issues.set('encryption-unknown', facts.encryptionUnknown);
  }
  return issues;
}

/**
 * Why an existing encryption is weaker than the plan (empty when it is not, or cannot be compared), from the
 * storage model: the LUKS volumes of the target with dm-crypt settings rules (LUKS1, a shorter key, a cipher that
 * is no XTS or wide-block mode, a PBKDF2 keyslot where the plan derives with Argon2id). Argon2's memory per keyslot
 * is not in the model: it is read from the Linux encryption inventory, the only place it is measured (cryptsetup
 * luksDump); BitLocker and FileVault derive no key with Argon2, so this check does not apply to them.
 */
function weakerThanPlan(
  place: EncryptedPlace,
  plan: AssessmentPlan | null,
  inventory: AssessmentResult['encryption'],
): string[] {
  const { id, state } = place;
  if (plan === null || recogniseVolume(state.kind)?.target.settings?.dmCryptParameters !== true) {
    return [];
  }
  const reasons: string[] = [];
  const planned = plan.settings;
  if (state.kind === 'luks1') {
    reasons.push(`${id} is LUKS1 (PBKDF2 only, no Argon2)`);
  }
  if (state.keyBits !== null && planned.keySizeBits !== null && state.keyBits < planned.keySizeBits) {
    reasons.push(`${id} has a ${String(state.keyBits)}-bit key, the plan ${String(planned.keySizeBits)}`);
  }
  if (state.cipher !== null && !/xts|adiantum/.test(state.cipher)) {
    reasons.push(`${id} uses ${state.cipher}, not a wide-block or XTS mode`);
  }
  const wanted = planned.luks2Pbkdf;
  if (wanted === null) {
    return reasons;
  }
  const memory = new Map(
    (inventory?.found.find((found) => found.path === id)?.pbkdf ?? []).map((slot) => [
      slot.keyslot,
      slot.memoryKibibytes,
    ]),
  );
  for (const slot of state.keySlots) {
    const memoryKiB = memory.get(slot.id) ?? null;
    if (slot.type === 'pbkdf2' && wanted.kdf !== 'pbkdf2') {
      reasons.push(`${id} keyslot ${slot.id} uses PBKDF2, the plan argon2id`);
    } else if (slot.type !== 'pbkdf2' && memoryKiB !== null && memoryKiB < wanted.memoryKiB) {
      reasons.push(
        `${id} keyslot ${slot.id} uses ${String(memoryKiB)} KiB of Argon2 memory, the plan ${String(wanted.memoryKiB)}`,
      );
    }
  }
  return reasons;
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
      : settings.luks2Pbkdf.kdf === 'pbkdf2'
        ? 'pbkdf2 (GRUB)'
        : `argon2id ${formatBytes(settings.luks2Pbkdf.memoryKiB * 1024)} ×${String(settings.luks2Pbkdf.parallel)}`,
    settings.space !== null && settings.space.unallocatedBytes > 0
      ? `${formatBytes(settings.space.unallocatedBytes)} left unallocated`
      : null,
    `${String(plan.commands.length)} ${plan.commands.length === 1 ? 'command' : 'commands'}`,
  ];
  return parts.filter((part) => part !== null).join(', ');
}
