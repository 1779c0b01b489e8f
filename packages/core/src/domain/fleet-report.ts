import { z } from 'zod';
import { TOOL_VERSION } from '../version.js';

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
  'protection-off',
  'method-mismatch',
  'encryption-unknown',
] as const;
/** One of FLEET_ISSUES, as a zod schema. */
const fleetIssueSchema = z.enum(FLEET_ISSUES);
/** One of FLEET_ISSUES. */
export type FleetIssue = z.infer<typeof fleetIssueSchema>;

/** People's words for each issue (text, CSV header notes, HTML). */
export const FLEET_ISSUE_LABELS: Readonly<Record<FleetIssue, string>> = {
  'drive-failing': 'failing drive',
  'drive-worn': 'worn drive',
  'aes-unaccelerated': 'AES not accelerated in the kernel',
  'discards-blocked': 'discards blocked by a layer',
  'no-spare-area': 'no spare area',
  'encrypted-weaker': 'already encrypted with weaker settings',
  'protection-off': 'encrypted, but protection is off or suspended',
  'method-mismatch': 'encryption method not the one the policy requires',
  'encryption-unknown': 'whether the disk is encrypted could not be read',
};

/**
 * Encryption methods in one vocabulary for every platform, as fleet policies name them (Intune's BitLocker
 * "EncryptionMethodByDriveType": XTS-AES 128/256, AES-CBC 128/256; Microsoft Learn, BitLocker CSP). A LUKS
 * `aes-xts-plain64` with a 512-bit key is XTS-AES-256: XTS splits the key in two (cryptsetup(8), --key-size;
 * IEEE 1619-2007 §5.1).
 */
export const FLEET_METHODS = [
  'xts-aes-128',
  'xts-aes-256',
  'aes-cbc-128',
  'aes-cbc-256',
  'adiantum',
  'hardware',
] as const;
/** One of FLEET_METHODS. */
export type FleetMethod = (typeof FLEET_METHODS)[number];

/** What the fleet's policy requires (`fleet report --require-method`); an empty list checks nothing. */
export interface FleetPolicy {
  readonly methods: readonly FleetMethod[];
}

/** What a document is, before anything is read from it. */
const documentStatusSchema = z.enum([
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
const readinessSchema = z.enum(['ready', 'fix-first', 'already-encrypted', 'no-plan', 'not-assessed']);
/** Where a machine stands: ready, fix-first, already-encrypted, no-plan or not-assessed. */
export type Readiness = z.infer<typeof readinessSchema>;

/** One flat row per document (machine and disk): scalars only, so it loads into a spreadsheet or SQL as is. */
export const fleetRowSchema = z.object({
  /** The file (or bundle directory) the row was read from, as given on the command line. */
  source: z.string(),
  /** The machine: the first folder below a PATH argument, else the file's name without `.json`. */
  machine: z.string(),
  disk: z.string().nullable(),
  /** linux, darwin or win32 (1.1); null when the document could not be read. */
  platform: z.enum(['linux', 'darwin', 'win32']).nullable(),
  /**
   * The source of the first row of the same machine and disk when this row repeats it (1.1): the repeat is
   * listed but not counted again.
   */
  duplicateOf: z.string().nullable(),
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
  /** 1.1: an encrypted volume whose protection is off or suspended (BitLocker "Protection Off"). */
  protectionOff: z.boolean(),
  /** 1.1: an encryption method other than `--require-method` allows. */
  methodMismatch: z.boolean(),
  /** 1.1: the platform could not tell whether the disk is encrypted (macOS/Windows `encryptionUnknown`). */
  encryptionUnknown: z.boolean(),
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
  /** 1.1: the existing encryption's methods (FLEET_METHODS, else the cipher), ";" between volumes; null: none or unknown. */
  encryptionMethod: z.string().nullable(),
  /** 1.1: every encrypted volume has protection on (true), one has it off (false); null: not encrypted or not told. */
  protectionOn: z.boolean().nullable(),
  /** 1.1: an encryption or decryption is under way (BitLocker conversion, FileVault encrypting); null: not told. */
  conversionInProgress: z.boolean().nullable(),
  /** 1.1: the lowest percentage encrypted of the disk's volumes, as the platform reports it; null: not told. */
  percentEncrypted: z.number().nullable(),
  /**
   * 1.1: the LUKS key slots with their KDF, e.g. "0:argon2id 1:pbkdf2"; from 1.2 with the LUKS2 tokens bound to
   * each ("1:pbkdf2+systemd-tpm2"); null: no LUKS volume.
   */
  keySlots: z.string().nullable(),
  /** 1.1: whether a key slot other than 0 is used (tools that escrow only slot 0 miss it); null: no LUKS volume. */
  keySlotsBeyondZero: z.boolean().nullable(),
  /**
   * 1.1: a TPM protects the key (BitLocker TPM protector, LUKS2 systemd-tpm2 token). Filled from 1.2: false only
   * when every protector or LUKS2 token was read and none is a TPM. Null whenever the assessment did not read
   * them (manage-bde without its protector list, LUKS1, documents before assessment 1.3, a clevis token whose pin
   * is not in the header): never guessed from the platform.
   */
  tpmProtector: z.boolean().nullable(),
  /**
   * 1.1: the recovery key is escrowed (AD, Entra ID, an MDM). Always null from a machine's own assessment: escrow
   * is recorded by the directory, not on the disk; join this column with your MDM's export.
   */
  recoveryKeyEscrowed: z.null(),
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
  /**
   * 1.2: the worst protection over the disk's data volumes: `off` (BitLocker protection off while converting),
   * `suspended` (fully encrypted, key in the clear: Suspend-BitLocker), `none` (a data volume nothing encrypts),
   * `unknown`, `on`; `no-volumes` when the disk holds no filesystem. Null: not assessed.
   */
  protection: z.enum(['on', 'off', 'suspended', 'none', 'unknown', 'no-volumes']).nullable(),
  /** 1.2: the conversion under way or paused (`encrypting`, `decryption-paused`, …); null: none or not told. */
  conversion: z.string().nullable(),
  /**
   * 1.2: a LUKS volume has no keyslot 0, or its slot 0 is bound to a token: the passphrase lives in another
   * slot, which tools that escrow "slot 0" miss (fleetdm/fleet#46227). Null: no LUKS volume.
   */
  passphraseOutsideSlot0: z.boolean().nullable(),
  /** 1.2: a volume group or array on this disk spans other disks (fleetdm/fleet#47256); null: not known. */
  spansDisks: z.boolean().nullable(),
  /** 1.2: the devices off this disk it spans, ";" between them; null: not known (empty: none). */
  otherDisks: z.string().nullable(),
  /** 1.2: the layers where discards stop, ";" between them; null: none stops them (or not read). */
  discardsStopAt: z.string().nullable(),
  /**
   * 1.2: what the drive could get back once discards pass: the bytes it holds as written (NVMe namespace
   * utilisation) minus what the filesystems use. Null: unknown (not NVMe, nothing mounted), or nothing stops
   * discards. Never 0 for unknown.
   */
  reclaimableBytes: z.number().int().nullable(),
  /**
   * 1.4: folders encrypted file by file on the disk's filesystems, kind and folder, ";" between them
   * ("fscrypt /home/alice; eCryptfs /home/bob"): a file-level layer, not full-disk encryption, never counted as
   * encrypted. Null: none found, or not looked for (macOS, Windows, Linux documents without the storage model's
   * file-encryption layers).
   */
  fileLevelEncryption: z.string().nullable(),
});
/** One flat row of the fleet report (a machine and disk). */
export type FleetRow = z.infer<typeof fleetRowSchema>;

/** The result of `encplan fleet report --json`: rows, counts by readiness and issue, versions seen. */
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
    /** 1.1: rows (machine and disk) counted: every row but the repeats. */
    disks: z.number().int(),
    /** 1.1: disks listed more than once for the same machine (each counted once here, whatever the repeats). */
    duplicateDisks: z.number().int(),
    /** 1.1: rows by platform. */
    platforms: z.object({ linux: z.number().int(), darwin: z.number().int(), win32: z.number().int() }),
    /**
     * 1.4: disks whose only encryption is file by file (an fscrypt or eCryptfs home, `fileLevelEncryption`
     * set, `existingEncryption` null): counted under their readiness, never under alreadyEncrypted.
     */
    fileLevelOnly: z.number().int(),
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
  /** 1.1: the policy the rows were checked against (`--require-method`); empty: none. */
  policy: z.object({ methods: z.array(z.enum(FLEET_METHODS)) }),
  rows: z.array(fleetRowSchema),
});
/** Everything of the fleet report but its rows: what is known once every row has been written. */
export type FleetTotals = Omit<FleetReport, 'rows'>;
/** The fleet report: what `encplan fleet report` prints as text, CSV, HTML or JSON. */
export type FleetReport = z.infer<typeof fleetReportResultSchema>;
