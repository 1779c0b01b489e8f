import {
  isJsonObject,
  numberAt,
  parseJsonObject,
  stringAt,
  booleanAt,
  unrecognized,
  type JsonObject,
} from '../json-reader.js';
import { bitLockerMethodOf, type BitLockerMethod } from '../manage-bde/parse-manage-bde-status.js';

const TOOL = 'powershell';

/**
 * MSFT_PhysicalDisk.BusType as CIM prints it (Microsoft Learn, "MSFT_PhysicalDisk class"); ConvertTo-Json
 * of Get-PhysicalDisk writes the number, Get-Disk's BusType the name (fixture: "File Backed Virtual", "SAS").
 */
const BUS_TYPES = [
  'Unknown',
  'SCSI',
  'ATAPI',
  'ATA',
  '1394',
  'SSA',
  'Fibre Channel',
  'USB',
  'RAID',
  'iSCSI',
  'SAS',
  'SATA',
  'SD',
  'MMC',
  'Virtual',
  'File Backed Virtual',
  'Storage Spaces',
  'NVMe',
  'SCM',
  'UFS',
];
/** MSFT_PhysicalDisk.MediaType: 0 Unspecified, 3 HDD, 4 SSD, 5 SCM (same page). */
const MEDIA_TYPES: Readonly<Record<number, string>> = { 0: 'Unspecified', 3: 'HDD', 4: 'SSD', 5: 'SCM' };

/** A Windows disk: Get-Disk joined by number with Get-PhysicalDisk (DeviceId) where both are present. */
export interface WindowsDisk {
  readonly number: number;
  readonly friendlyName: string | null;
  readonly serialNumber: string | null;
  readonly busType: string | null;
  /** "SSD", "HDD", "SCM", "Unspecified" (Get-PhysicalDisk only). */
  readonly mediaType: string | null;
  readonly sizeBytes: number | null;
  readonly logicalSectorBytes: number | null;
  readonly physicalSectorBytes: number | null;
  readonly partitionStyle: string | null;
  readonly isBoot: boolean | null;
  readonly isSystem: boolean | null;
  readonly isReadOnly: boolean | null;
  readonly isOffline: boolean | null;
  /** Get-PhysicalDisk HealthStatus: "Healthy", "Warning", "Unhealthy". */
  readonly healthStatus: string | null;
}

/** A partition from Get-Partition. */
export interface WindowsPartition {
  readonly diskNumber: number;
  readonly partitionNumber: number;
  /** Null for none: PowerShell 5.1 writes a missing letter as "\u0000". */
  readonly driveLetter: string | null;
  readonly accessPaths: readonly string[];
  readonly sizeBytes: number | null;
  readonly offsetBytes: number | null;
  readonly type: string | null;
  readonly fileSystem: string | null;
  readonly label: string | null;
}

/** A volume from Get-Volume. */
export interface WindowsVolume {
  readonly driveLetter: string | null;
  readonly path: string | null;
  readonly fileSystem: string | null;
  readonly label: string | null;
  readonly sizeBytes: number | null;
  readonly remainingBytes: number | null;
  readonly healthStatus: string | null;
}

/** Get-StorageReliabilityCounter of one physical disk (wear, temperature, error counts). */
export interface WindowsReliability {
  readonly deviceId: string | null;
  readonly temperatureCelsius: number | null;
  readonly temperatureMaxCelsius: number | null;
  /** Percentage of rated endurance used (Wear). */
  readonly wearPercent: number | null;
  readonly powerOnHours: number | null;
  readonly readErrorsTotal: number | null;
  readonly writeErrorsTotal: number | null;
}

/** Get-BitLockerVolume of one volume. */
export interface WindowsBitLocker {
  readonly mountPoint: string;
  readonly method: BitLockerMethod;
  readonly volumeStatus: string | null;
  readonly protectionOn: boolean | null;
  /** LockStatus: true when Locked (its key is not in memory), false when Unlocked, null when not printed. */
  readonly locked: boolean | null;
  readonly encryptionPercentage: number | null;
  /** Key protector types only; recovery passwords are never read. */
  readonly keyProtectorTypes: readonly string[];
}

/** What the Windows storage script printed (ConvertTo-Json of one object with these arrays). */
export interface WindowsStorage {
  readonly administrator: boolean | null;
  readonly disks: readonly WindowsDisk[];
  readonly partitions: readonly WindowsPartition[];
  readonly volumes: readonly WindowsVolume[];
  readonly reliability: readonly WindowsReliability[];
  readonly bitLocker: readonly WindowsBitLocker[];
}

/** ConvertTo-Json writes a one-element pipeline as an object, not an array: both read as a list. */
function listAt(root: JsonObject, key: string): readonly JsonObject[] {
  const value = root[key];
  if (value === undefined || value === null) {
    return [];
  }
  if (isJsonObject(value)) {
    return [value];
  }
  if (!Array.isArray(value)) {
    throw unrecognized(TOOL, `${key} is neither an object nor an array`);
  }
  return value.filter(isJsonObject);
}

function enumName(
  value: unknown,
  names: readonly string[] | Readonly<Record<number, string>>,
): string | null {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number') {
    return (names as Record<number, string | undefined>)[value] ?? String(value);
  }
  return null;
}

function letter(value: unknown): string | null {
  if (typeof value !== 'string') {
    return null;
  }
  const trimmed = value.split(String.fromCharCode(0)).join('').trim();
  return /^[A-Za-z]$/.test(trimmed) ? trimmed.toUpperCase() : null;
}

function required(item: JsonObject, key: string, what: string): number {
  const value = numberAt(item, key);
  if (value === null) {
    throw unrecognized(TOOL, `a ${what} without ${key}`);
  }
  return value;
}

/**
 * Parses the JSON encplan's Windows probe prints: `{ Administrator, PhysicalDisks, Disks, Partitions,
 * Volumes, ReliabilityCounters, BitLockerVolumes }`, each the ConvertTo-Json of the cmdlet of that name
 * (fixture powershell/get-disk-get-partition-github-runner holds Disks and Partitions of that shape).
 * A document with none of these arrays fails closed.
 */
export function parseWindowsStorageJson(text: string): WindowsStorage {
  const root = parseJsonObject(TOOL, text.replace(/^\uFEFF/, ''));
  const keys = ['PhysicalDisks', 'Disks', 'Partitions', 'Volumes', 'ReliabilityCounters', 'BitLockerVolumes'];
  if (!keys.some((key) => key in root)) {
    throw unrecognized(TOOL, `none of ${keys.join(', ')}`);
  }
  const physical = new Map(
    listAt(root, 'PhysicalDisks').map(
      (item) => [stringAt(item, 'DeviceId') ?? String(numberAt(item, 'DeviceNumber') ?? ''), item] as const,
    ),
  );
  const diskItems = listAt(root, 'Disks');
  const sources = diskItems.length > 0 ? diskItems : [...physical.values()];
  const disks = sources.map((item): WindowsDisk => {
    const number = numberAt(item, 'Number') ?? Number(stringAt(item, 'DeviceId') ?? Number.NaN);
    if (!Number.isInteger(number)) {
      throw unrecognized(TOOL, 'a disk without Number or DeviceId');
    }
    const pd = physical.get(String(number)) ?? (diskItems.length > 0 ? null : item);
    return {
      number,
      friendlyName: stringAt(item, 'FriendlyName'),
      serialNumber: stringAt(item, 'SerialNumber')?.trim() ?? null,
      busType: enumName(item['BusType'] ?? pd?.['BusType'], BUS_TYPES),
      mediaType: enumName(pd?.['MediaType'], MEDIA_TYPES),
      sizeBytes: numberAt(item, 'Size'),
      logicalSectorBytes: numberAt(item, 'LogicalSectorSize') ?? numberAt(pd, 'LogicalSectorSize'),
      physicalSectorBytes: numberAt(item, 'PhysicalSectorSize') ?? numberAt(pd, 'PhysicalSectorSize'),
      partitionStyle: enumName(item['PartitionStyle'], ['Unknown', 'MBR', 'GPT']),
      isBoot: booleanAt(item, 'IsBoot'),
      isSystem: booleanAt(item, 'IsSystem'),
      isReadOnly: booleanAt(item, 'IsReadOnly'),
      isOffline: booleanAt(item, 'IsOffline'),
      healthStatus: enumName(pd?.['HealthStatus'] ?? item['HealthStatus'], [
        'Healthy',
        'Warning',
        'Unhealthy',
      ]),
    };
  });
  const partitions = listAt(root, 'Partitions').map((item): WindowsPartition => ({
    diskNumber: required(item, 'DiskNumber', 'partition'),
    partitionNumber: required(item, 'PartitionNumber', 'partition'),
    driveLetter: letter(item['DriveLetter']),
    accessPaths: (Array.isArray(item['AccessPaths']) ? item['AccessPaths'] : []).filter(
      (path): path is string => typeof path === 'string',
    ),
    sizeBytes: numberAt(item, 'Size'),
    offsetBytes: numberAt(item, 'Offset'),
    type: enumName(item['Type'], []),
    fileSystem: stringAt(item, 'FileSystem'),
    label: stringAt(item, 'Label'),
  }));
  const volumes = listAt(root, 'Volumes').map((item): WindowsVolume => ({
    driveLetter: letter(item['DriveLetter']),
    path: stringAt(item, 'Path'),
    fileSystem: stringAt(item, 'FileSystem') ?? stringAt(item, 'FileSystemType'),
    label: stringAt(item, 'FileSystemLabel'),
    sizeBytes: numberAt(item, 'Size'),
    remainingBytes: numberAt(item, 'SizeRemaining'),
    healthStatus: enumName(item['HealthStatus'], ['Healthy', 'Warning', 'Unhealthy']),
  }));
  const reliability = listAt(root, 'ReliabilityCounters').map((item): WindowsReliability => ({
    deviceId: stringAt(item, 'DeviceId'),
    temperatureCelsius: numberAt(item, 'Temperature'),
    temperatureMaxCelsius: numberAt(item, 'TemperatureMax'),
    wearPercent: numberAt(item, 'Wear'),
    powerOnHours: numberAt(item, 'PowerOnHours'),
    readErrorsTotal: numberAt(item, 'ReadErrorsTotal'),
    writeErrorsTotal: numberAt(item, 'WriteErrorsTotal'),
  }));
  const bitLocker = listAt(root, 'BitLockerVolumes').map((item): WindowsBitLocker => {
    const mountPoint = stringAt(item, 'MountPoint');
    if (mountPoint === null) {
      throw unrecognized(TOOL, 'a BitLocker volume without MountPoint');
    }
    // The probe prints enums as names (ConvertTo-Json -EnumsAsStrings / .ToString()); a bare number is kept as
    // text and reads as an unknown method rather than guessing an enumeration.
    const method = enumName(item['EncryptionMethod'], []) ?? 'unknown';
    const protection = enumName(item['ProtectionStatus'], ['Off', 'On', 'Unknown']);
    // BitLockerVolumeLockStatus as Get-BitLockerVolume prints it ("Unlocked", "Locked"); a bare number is
    // Win32_EncryptableVolume GetLockStatus's (0 unlocked, 1 locked; Microsoft Learn, "GetLockStatus method of
    // the Win32_EncryptableVolume class"). Absent in documents of the script before it selected LockStatus.
    const lock = enumName(item['LockStatus'], ['Unlocked', 'Locked']);
    return {
      mountPoint,
      method: bitLockerMethodOf(method),
      volumeStatus: enumName(item['VolumeStatus'], []),
      protectionOn: protection === 'On' ? true : protection === 'Off' ? false : null,
      locked: lock === 'Locked' ? true : lock === 'Unlocked' ? false : null,
      encryptionPercentage: numberAt(item, 'EncryptionPercentage'),
      keyProtectorTypes: listAt(item, 'KeyProtector').flatMap((protector) => {
        const type = enumName(protector['KeyProtectorType'], []);
        return type === null ? [] : [type];
      }),
    };
  });
  return {
    administrator: booleanAt(root, 'Administrator'),
    disks,
    partitions,
    volumes,
    reliability,
    bitLocker,
  };
}
