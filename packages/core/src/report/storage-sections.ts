import {
  ENCRYPTION_KIND_LABELS,
  type ConversionState,
  type StorageModel,
  type StorageVolume,
} from '../domain/storage-model.js';
import type { Warning } from '../domain/warning.js';
import { formatBytes, formatPercent } from '../domain/units.js';
import {
  existingEncryptionSection,
  fact,
  warningsFrom,
  yesNo,
  type FindingView,
  type SectionView,
} from './assessment-sections.js';
import { UNKNOWN } from './labels.js';

/**
 * The report sections of an assessment without the Linux-shaped sections (macOS, Windows), from the storage
 * model alone: drive and health, TRIM, the processor and existing encryption (FileVault/APFS, BitLocker). Older
 * documents reach it through storageModelOf, which rebuilds the model from their deprecated `platformStorage`.
 * What stays per platform is the names of the platform's tools.
 */

const HEALTH_TONE = { healthy: 'good', warning: 'attention', failing: 'bad', unknown: 'unknown' } as const;
/** The tools whose warnings say why the health is unknown, per platform. */
const HEALTH_TOOLS: Readonly<Record<StorageModel['platform'], readonly string[]>> = {
  linux: ['smartctl'],
  darwin: ['diskutil', 'system_profiler', 'fdesetup', 'sysctl', 'smartctl'],
  win32: ['powershell', 'manage-bde', 'fsutil', 'smartctl'],
};
const PLATFORM_NAMES: Readonly<Record<StorageModel['platform'], string>> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
};

function number(value: number | null, unit: string): string {
  return value === null ? UNKNOWN : `${String(value)}${unit}`;
}

function healthSection(model: StorageModel, warnings: readonly Warning[]): SectionView {
  const { disk } = model;
  const health = disk.health ?? null;
  const source = disk.source ?? null;
  const verdict = health?.verdict ?? 'unknown';
  return {
    id: 'health',
    title: 'Drive health',
    tone: HEALTH_TONE[verdict],
    verdict,
    summary: health?.note ?? 'No health source answered.',
    findings:
      health?.statusOnly === true
        ? [
            {
              tone: 'unknown',
              message:
                'Only the SMART status is known: a weaker source than smartctl, which reads wear and error logs.',
              source: health.source,
            },
          ]
        : [],
    facts: [
      fact('Drive', disk.model === '' ? null : disk.model, source),
      fact('Identifier', disk.id, source),
      fact('Bus', disk.bus, source),
      fact('Internal', yesNo(disk.internal ?? null), source),
      fact('Kind', disk.medium === 'unknown' ? null : disk.medium.toUpperCase(), source),
      fact('Size', disk.sizeBytes === null ? null : formatBytes(disk.sizeBytes), source),
      fact('SMART status', health?.status ?? null, health?.source ?? null),
      fact(
        'Endurance used',
        health === null || health.wearPercent === null ? null : formatPercent(health.wearPercent),
        health?.source ?? null,
      ),
      fact('Temperature', number(health?.temperatureCelsius ?? null, ' °C'), health?.source ?? null),
      fact('Power-on time', number(health?.powerOnHours ?? null, ' hours'), health?.source ?? null),
      fact('Media errors', number(health?.mediaErrors ?? null, ''), health?.source ?? null),
    ],
    missingReason: verdict === 'unknown' ? warningsFrom(warnings, HEALTH_TOOLS[model.platform]) : null,
  };
}

function trimSection(model: StorageModel): SectionView {
  const { driveSupports = null, osSends = null, source = null } = model.disk.trim ?? {};
  // A known "no" is a problem; anything unknown stays unknown (never "does not support" for an unknown).
  const tone =
    driveSupports === true && osSends === true
      ? 'good'
      : driveSupports === false || osSends === false
        ? 'attention'
        : 'unknown';
  // What keeps TRIM above the drive: the filesystem the platform encrypts under (APFS issues TRIM itself under
  // FileVault, trimforce(8); BitLocker encrypts below NTFS).
  const keeps = model.platform === 'darwin' ? 'APFS under FileVault' : 'NTFS under BitLocker';
  const summary =
    tone === 'good'
      ? `The drive supports TRIM and ${PLATFORM_NAMES[model.platform]} sends it; ${keeps} keeps passing it.`
      : driveSupports === false
        ? 'The drive does not support TRIM.'
        : osSends === false
          ? 'The operating system does not send TRIM to this drive.'
          : driveSupports === true
            ? 'The drive supports TRIM; whether the operating system sends it is unknown.'
            : 'We could not tell whether the drive supports TRIM.';
  return {
    id: 'trim',
    title: 'TRIM',
    tone,
    verdict: tone === 'good' ? 'supported' : tone === 'unknown' ? 'unknown' : 'not passed',
    summary,
    findings: [],
    facts: [
      fact('Drive supports TRIM', yesNo(driveSupports), source),
      fact('Operating system sends TRIM', yesNo(osSends), source),
    ],
    missingReason: null,
  };
}

/** Where a conversion stands, in the words manage-bde and diskutil use. */
const CONVERSION_LABELS: Readonly<Record<ConversionState, string>> = {
  complete: 'fully encrypted',
  'used-space-only': 'used space only encrypted',
  encrypting: 'encryption in progress',
  decrypting: 'decryption in progress',
  'encryption-paused': 'encryption paused',
  'decryption-paused': 'decryption paused',
  decrypted: 'fully decrypted',
  unknown: 'conversion state unknown',
};

function describe(volume: StorageVolume): string {
  const name = volume.label === null || volume.label === '' ? volume.id : `${volume.id} "${volume.label}"`;
  const state = volume.encryption;
  if (state === null) {
    return `${volume.encryptionKnown ? 'Not encrypted' : 'Encryption unknown'}: ${name}.`;
  }
  const method =
    state.cipher === 'hardware'
      ? "the drive's own hardware encryption"
      : state.cipher === null
        ? null
        : `${state.cipher.toUpperCase()}${state.keyBits === null ? '' : ` ${String(state.keyBits)}`}`;
  const protectors = state.keySlots.map((slot) => slot.type);
  const parts = [
    method,
    state.hardware === true && state.cipher !== 'hardware' ? 'keys in the storage controller' : null,
    state.conversion === null ? null : CONVERSION_LABELS[state.conversion],
    state.percentEncrypted === null ? null : `${String(state.percentEncrypted)} % encrypted`,
    state.protection === 'unknown' ? null : `protection ${state.protection}`,
    protectors.length === 0 ? null : `key protectors: ${protectors.join(', ')}`,
  ].filter((part): part is string => part !== null);
  return `${ENCRYPTION_KIND_LABELS[state.kind]} on ${name}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}.`;
}

function encryptionSection(model: StorageModel): SectionView {
  const encrypted = model.volumes.filter((volume) => volume.encryption !== null);
  return existingEncryptionSection(
    encrypted.length,
    model.volumes.map((volume): FindingView => ({
      tone:
        volume.encryption?.cipher === 'hardware'
          ? 'attention'
          : volume.encryption === null && !volume.encryptionKnown
            ? 'unknown'
            : 'info',
      message: describe(volume),
      source: volume.encryption?.source ?? model.disk.source ?? null,
    })),
    model.platform === 'darwin'
      ? [fact('FileVault (fdesetup status)', model.fileVault ?? null, 'fdesetup')]
      : [],
    'No encrypted volume was found on this disk.',
    model.encryptionUnknown,
  );
}

function cpuSection(model: StorageModel): SectionView {
  const aes = model.cpu?.aes ?? null;
  const appleSilicon = model.cpu?.appleSilicon ?? null;
  const source = model.cpu?.source ?? null;
  return {
    id: 'cpu',
    title: 'Processor',
    tone: aes === false ? 'attention' : aes === true || appleSilicon === true ? 'good' : 'unknown',
    verdict:
      appleSilicon === true
        ? 'Apple silicon'
        : aes === null
          ? 'unknown'
          : aes
            ? 'AES in hardware'
            : 'no AES instructions',
    summary:
      appleSilicon === true
        ? model.disk.internal === false
          ? 'Apple silicon encrypts only the internal SSD in its storage controller; this external drive is encrypted by the CPU’s AES instructions.'
          : 'Apple silicon encrypts the internal SSD in its storage controller: turning FileVault on costs no measurable speed.'
        : aes === false
          ? 'The CPU has no AES instructions: software encryption costs noticeable CPU time.'
          : 'Software encryption runs on the CPU’s AES instructions where they are present.',
    findings: [],
    facts: [fact('AES instructions', yesNo(aes), source), fact('Apple silicon', yesNo(appleSilicon), source)],
    missingReason: null,
  };
}

/** The sections an assessment without Linux-shaped sections shows, in reading order. */
export function storageSectionViews(model: StorageModel, warnings: readonly Warning[]): SectionView[] {
  return [healthSection(model, warnings), trimSection(model), cpuSection(model), encryptionSection(model)];
}

/** The assessed drive of the storage model, formatted as the report's device block. */
export function storageDeviceView(model: StorageModel | null, requested: string) {
  if (model === null) {
    return {
      path: requested,
      model: 'Unknown model',
      size: UNKNOWN,
      sizeBytes: 0,
      transport: UNKNOWN,
      kind: 'disk',
      isSystemDisk: false,
      facts: [],
    };
  }
  const { disk } = model;
  const source = disk.source ?? null;
  const system = model.volumes.some(
    (volume) =>
      (volume.roles ?? []).includes('System') ||
      volume.id === 'C:' ||
      volume.mountpoints.some((mount) => mount === 'C:' || mount === '/'),
  );
  return {
    path: disk.id,
    model: disk.model === null || disk.model === '' ? 'Unknown model' : disk.model,
    size: disk.sizeBytes === null ? UNKNOWN : formatBytes(disk.sizeBytes),
    sizeBytes: disk.sizeBytes ?? 0,
    transport: disk.bus ?? UNKNOWN,
    kind:
      disk.medium === 'ssd' ? 'solid-state' : disk.medium === 'hdd' ? 'hard disk' : 'disk of unknown media',
    isSystemDisk:
      system || model.partitions.some((part) => part.mountpoint === 'C:' || part.mountpoint === '/'),
    facts: [
      fact('Partition style', disk.partitionStyle ?? null, source),
      fact(
        'Logical sector',
        disk.logicalSectorBytes === null || disk.logicalSectorBytes === undefined
          ? null
          : formatBytes(disk.logicalSectorBytes),
        source,
      ),
      ...model.partitions.map((part) =>
        fact(
          `Partition ${part.id}`,
          [
            part.type,
            part.sizeBytes === null ? null : formatBytes(part.sizeBytes),
            part.label ?? null,
            part.mountpoint === null || part.mountpoint === undefined
              ? null
              : `mounted at ${part.mountpoint}`,
          ]
            .filter((value): value is string => value !== null)
            .join(', '),
          source,
        ),
      ),
    ],
  };
}
