import type { PlatformEncryption, PlatformStorage } from '../domain/platform-storage.js';
import { defaultTargetFor, recogniseVolume } from '../targets/registry.js';
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
 * The report sections of a macOS or Windows assessment (schema 1.2), from the platform probe set's facts:
 * drive and health, TRIM, existing encryption (FileVault/APFS, BitLocker) and the CPU's AES support.
 */

const HEALTH_TONE = { healthy: 'good', warning: 'attention', failing: 'bad', unknown: 'unknown' } as const;
const MACOS_TOOLS = ['diskutil', 'system_profiler', 'fdesetup', 'sysctl', 'smartctl'];
const WINDOWS_TOOLS = ['powershell', 'manage-bde', 'fsutil', 'smartctl'];

function number(value: number | null, unit: string): string {
  return value === null ? UNKNOWN : `${String(value)}${unit}`;
}

function healthSection(storage: PlatformStorage, warnings: readonly Warning[]): SectionView {
  const { health, disk } = storage;
  return {
    id: 'health',
    title: 'Drive health',
    tone: HEALTH_TONE[health.verdict],
    verdict: health.verdict,
    summary: health.note,
    findings: health.statusOnly
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
      fact('Drive', disk.model, disk.source),
      fact('Identifier', disk.identifier, disk.source),
      fact('Bus', disk.bus, disk.source),
      fact('Internal', yesNo(disk.internal), disk.source),
      fact('Kind', disk.medium === 'unknown' ? null : disk.medium.toUpperCase(), disk.source),
      fact('Size', disk.sizeBytes === null ? null : formatBytes(disk.sizeBytes), disk.source),
      fact('SMART status', health.status, health.source),
      fact(
        'Endurance used',
        health.wearPercent === null ? null : formatPercent(health.wearPercent),
        health.source,
      ),
      fact('Temperature', number(health.temperatureCelsius, ' °C'), health.source),
      fact('Power-on time', number(health.powerOnHours, ' hours'), health.source),
      fact('Media errors', number(health.mediaErrors, ''), health.source),
    ],
    missingReason:
      health.verdict === 'unknown'
        ? warningsFrom(warnings, storage.platform === 'darwin' ? MACOS_TOOLS : WINDOWS_TOOLS)
        : null,
  };
}

function trimSection(storage: PlatformStorage): SectionView {
  const { driveSupports, osSends, source } = storage.trim;
  // A known "no" is a problem; anything unknown stays unknown (never "does not support" for an unknown).
  const tone =
    driveSupports === true && osSends === true
      ? 'good'
      : driveSupports === false || osSends === false
        ? 'attention'
        : 'unknown';
  const summary =
    tone === 'good'
      ? `The drive supports TRIM and ${storage.platform === 'darwin' ? 'macOS' : 'Windows'} sends it; ${storage.platform === 'darwin' ? 'APFS under FileVault' : 'NTFS under BitLocker'} keeps passing it.`
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

function describe(entry: PlatformEncryption): string {
  const method =
    entry.method === null || entry.method === 'none' || entry.method === 'unknown'
      ? null
      : entry.method === 'hardware'
        ? "the drive's own hardware encryption"
        : `${entry.method.toUpperCase()}${entry.keyBits === null ? '' : ` ${String(entry.keyBits)}`}`;
  const parts = [
    method,
    entry.hardware === true && entry.method !== 'hardware' ? 'keys in the storage controller' : null,
    entry.conversion,
    entry.percentEncrypted === null ? null : `${String(entry.percentEncrypted)} % encrypted`,
    entry.protectionOn === null ? null : `protection ${entry.protectionOn ? 'on' : 'off'}`,
  ].filter((part): part is string => part !== null);
  const name = entry.name === null ? entry.volume : `${entry.volume} "${entry.name}"`;
  return `${entry.format} on ${name}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}.`;
}

/**
 * Why the disk's encryption is unknown, or null when it was read. Documents from before
 * `encryptionUnknown` count as read only with a volume entry (and, on macOS, with fdesetup's answer).
 */
function encryptionUnknownReason(storage: PlatformStorage): string | null {
  if (storage.encryptionUnknown !== undefined) {
    return storage.encryptionUnknown;
  }
  const read =
    storage.platform === 'darwin'
      ? storage.encryption.length > 0 || storage.fileVault !== null
      : storage.encryption.some(
          (entry) => recogniseVolume(entry.format)?.target.id === defaultTargetFor('win32'),
        );
  return read
    ? null
    : `No ${storage.platform === 'darwin' ? 'diskutil or fdesetup' : 'manage-bde or Get-BitLockerVolume'} reading of this disk's volumes is in the assessment.`;
}

function encryptionSection(storage: PlatformStorage): SectionView {
  const encrypted = storage.encryption.filter((entry) => recogniseVolume(entry.format)?.encrypted !== false);
  return existingEncryptionSection(
    encrypted.length,
    storage.encryption.map((entry): FindingView => ({
      tone: entry.method === 'hardware' ? 'attention' : 'info',
      message: describe(entry),
      source: entry.source,
    })),
    storage.platform === 'darwin' ? [fact('FileVault (fdesetup status)', storage.fileVault, 'fdesetup')] : [],
    'No encrypted volume was found on this disk.',
    encryptionUnknownReason(storage),
  );
}

function cpuSection(storage: PlatformStorage): SectionView {
  const { cpu } = storage;
  return {
    id: 'cpu',
    title: 'Processor',
    tone:
      cpu.aes === false ? 'attention' : cpu.aes === true || cpu.appleSilicon === true ? 'good' : 'unknown',
    verdict:
      cpu.appleSilicon === true
        ? 'Apple silicon'
        : cpu.aes === null
          ? 'unknown'
          : cpu.aes
            ? 'AES in hardware'
            : 'no AES instructions',
    summary:
      cpu.appleSilicon === true
        ? storage.disk.internal === false
          ? 'Apple silicon encrypts only the internal SSD in its storage controller; this external drive is encrypted by the CPU’s AES instructions.'
          : 'Apple silicon encrypts the internal SSD in its storage controller: turning FileVault on costs no measurable speed.'
        : cpu.aes === false
          ? 'The CPU has no AES instructions: software encryption costs noticeable CPU time.'
          : 'Software encryption runs on the CPU’s AES instructions where they are present.',
    findings: [],
    facts: [
      fact('AES instructions', yesNo(cpu.aes), cpu.source),
      fact('Apple silicon', yesNo(cpu.appleSilicon), cpu.source),
    ],
    missingReason: null,
  };
}

/** The sections a macOS or Windows assessment shows, in reading order. */
export function platformSectionViews(storage: PlatformStorage, warnings: readonly Warning[]): SectionView[] {
  return [
    healthSection(storage, warnings),
    trimSection(storage),
    cpuSection(storage),
    encryptionSection(storage),
  ];
}

/** The assessed drive of a macOS or Windows assessment, formatted as the report's device block. */
export function platformDeviceView(storage: PlatformStorage | undefined, requested: string) {
  if (storage === undefined) {
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
  const { disk } = storage;
  const system = storage.encryption.some((entry) => entry.roles.includes('System') || entry.volume === 'C:');
  return {
    path: disk.identifier,
    model: disk.model === null || disk.model === '' ? 'Unknown model' : disk.model,
    size: disk.sizeBytes === null ? UNKNOWN : formatBytes(disk.sizeBytes),
    sizeBytes: disk.sizeBytes ?? 0,
    transport: disk.bus ?? UNKNOWN,
    kind:
      disk.medium === 'ssd' ? 'solid-state' : disk.medium === 'hdd' ? 'hard disk' : 'disk of unknown media',
    isSystemDisk:
      system || storage.partitions.some((part) => part.mountPoint === 'C:' || part.mountPoint === '/'),
    facts: [
      fact('Partition style', disk.partitionStyle, disk.source),
      fact(
        'Logical sector',
        disk.logicalSectorBytes === null ? null : formatBytes(disk.logicalSectorBytes),
        disk.source,
      ),
      ...storage.partitions.map((part) =>
        fact(
          `Partition ${part.identifier}`,
          [
            part.type,
            part.sizeBytes === null ? null : formatBytes(part.sizeBytes),
            part.label,
            part.mountPoint === null ? null : `mounted at ${part.mountPoint}`,
          ]
            .filter((value): value is string => value !== null)
            .join(', '),
          disk.source,
        ),
      ),
    ],
  };
}
