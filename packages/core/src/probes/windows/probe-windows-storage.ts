import type { StorageModel } from '../../domain/storage-model.js';
import { EncplanError, isEncplanError } from '../../errors.js';
import { parseDisableDeleteNotify } from '../../parsers/fsutil/parse-disable-delete-notify.js';
import {
  parseManageBdeStatus,
  type BitLockerMethod,
  type BitLockerVolume,
} from '../../parsers/manage-bde/parse-manage-bde-status.js';
import {
  parseWindowsStorageJson,
  type WindowsBitLocker,
} from '../../parsers/powershell/parse-storage-json.js';
import type { CommandOutput, CommandSpec } from '../../ports.js';
import { windowsLayout, type BitLockerReading } from '../../targets/bitlocker/volume-state.js';
import { smartctlHealth, statusOnlyHealth } from '../platform-health.js';
import { addWarning, attempt, tryRun, type ProbeContext } from '../probe-context.js';

/**
 * One PowerShell pipeline for the storage cmdlets. Enums are written as names ([string]) so the JSON does
 * not depend on numeric enumerations; of BitLocker's key protectors only the type is selected — recovery
 * passwords never leave the machine.
 */
/** Get-BitLockerVolume's LockStatus (Locked, Unlocked): bundles collected before the script selected it lack it. */
const LOCK_STATUS_SELECTED = "@{n='LockStatus';e={[string]$_.LockStatus}}, ";
const WINDOWS_STORAGE_SCRIPT = [
  "$ErrorActionPreference = 'Continue'",
  '$admin = ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)',
  `$bitlocker = @(try { Get-BitLockerVolume -ErrorAction Stop | Select-Object MountPoint, @{n='EncryptionMethod';e={[string]$_.EncryptionMethod}}, @{n='VolumeStatus';e={[string]$_.VolumeStatus}}, @{n='ProtectionStatus';e={[string]$_.ProtectionStatus}}, ${LOCK_STATUS_SELECTED}EncryptionPercentage, @{n='KeyProtector';e={@($_.KeyProtector | ForEach-Object { @{ KeyProtectorType = [string]$_.KeyProtectorType } })}} } catch { })`,
  '[ordered]@{',
  '  Administrator = $admin',
  "  PhysicalDisks = @(Get-PhysicalDisk | Select-Object DeviceId, FriendlyName, SerialNumber, @{n='BusType';e={[string]$_.BusType}}, @{n='MediaType';e={[string]$_.MediaType}}, @{n='HealthStatus';e={[string]$_.HealthStatus}}, Size, LogicalSectorSize, PhysicalSectorSize)",
  "  Disks = @(Get-Disk | Select-Object Number, FriendlyName, SerialNumber, @{n='BusType';e={[string]$_.BusType}}, Size, LogicalSectorSize, PhysicalSectorSize, @{n='PartitionStyle';e={[string]$_.PartitionStyle}}, IsBoot, IsSystem, IsReadOnly, IsOffline)",
  "  Partitions = @(Get-Partition | Select-Object DiskNumber, PartitionNumber, @{n='DriveLetter';e={[string]$_.DriveLetter}}, AccessPaths, Size, Offset, @{n='Type';e={[string]$_.Type}})",
  "  Volumes = @(Get-Volume | Select-Object @{n='DriveLetter';e={[string]$_.DriveLetter}}, Path, FileSystem, FileSystemLabel, Size, SizeRemaining, @{n='HealthStatus';e={[string]$_.HealthStatus}})",
  '  ReliabilityCounters = @(Get-PhysicalDisk | Get-StorageReliabilityCounter | Select-Object DeviceId, Temperature, TemperatureMax, Wear, PowerOnHours, ReadErrorsTotal, WriteErrorsTotal)',
  '  BitLockerVolumes = $bitlocker',
  '} | ConvertTo-Json -Depth 5 -Compress',
].join('\n');

/** The commands of the Windows probe set, exactly as run (bundles replay them by these argv). */
export const WINDOWS_COMMANDS = {
  storage: (): CommandSpec => ({
    tool: 'powershell',
    args: ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_STORAGE_SCRIPT],
    timeoutMs: 60_000,
  }),
  /** The script as bundles collected before LockStatus was selected recorded it (replayed, never run). */
  storageBeforeLockStatus: (): CommandSpec => ({
    tool: 'powershell',
    args: [
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      WINDOWS_STORAGE_SCRIPT.replace(LOCK_STATUS_SELECTED, ''),
    ],
    timeoutMs: 60_000,
  }),
  fsutil: (): CommandSpec => ({
    tool: 'fsutil',
    args: ['behavior', 'query', 'DisableDeleteNotify'],
    timeoutMs: 15_000,
  }),
  manageBde: (): CommandSpec => ({ tool: 'manage-bde', args: ['-status'], timeoutMs: 30_000 }),
} as const;

/** The method's facts of a BitLocker reading; method None when the conversion says fully decrypted. */
function methodFacts(method: BitLockerMethod, decrypted: boolean) {
  return {
    method: decrypted ? ('none' as const) : method.kind,
    keyBits: method.keyBits,
    hardware: method.kind === 'unknown' ? null : method.kind === 'hardware',
  };
}

const fromManageBde = (volume: BitLockerVolume): BitLockerReading => ({
  volume: volume.volume,
  name: volume.label,
  conversion: volume.conversion,
  percentEncrypted: volume.percentEncrypted,
  protectionOn: volume.protectionOn,
  locked: volume.locked,
  protectors: [...volume.keyProtectors],
  ...methodFacts(volume.method, volume.conversion === 'fully-decrypted'),
  source: 'manage-bde',
});

const fromCmdlet = (volume: WindowsBitLocker): BitLockerReading => ({
  volume: volume.mountPoint,
  name: null,
  conversion: volume.volumeStatus,
  percentEncrypted: volume.encryptionPercentage,
  protectionOn: volume.protectionOn,
  locked: volume.locked,
  protectors: [...volume.keyProtectorTypes],
  ...methodFacts(volume.method, volume.volumeStatus === 'FullyDecrypted'),
  source: 'Get-BitLockerVolume',
});

/** "0", "PhysicalDrive0", "\\.\PhysicalDrive0" → 0. */
function diskNumberOf(identifier: string): number {
  const match = /^(?:\\\\\.\\)?(?:PhysicalDrive)?(\d{1,3})$/i.exec(identifier.trim());
  if (match === null) {
    throw new EncplanError('INVALID_ARGUMENT', `${identifier} is not a Windows disk number.`, {
      hint: 'Give the disk number Get-Disk shows, e.g. 0 or \\\\.\\PhysicalDrive0.',
    });
  }
  return Number(match[1]);
}

/**
 * The storage script's answer. A bundle collected before the script selected LockStatus holds the earlier script's
 * answer: replayed, today's script is not in it (TOOL_NOT_FOUND) and the earlier one is. On Windows PowerShell
 * answers the first; it is missing there only on a stripped-down system, where the second fails the same way.
 */
async function runStorageScript(context: ProbeContext): Promise<CommandOutput> {
  try {
    return await context.host.run(WINDOWS_COMMANDS.storage(), context.signal);
  } catch (error) {
    if (!isEncplanError(error, 'TOOL_NOT_FOUND')) {
      throw error;
    }
    return context.host.run(WINDOWS_COMMANDS.storageBeforeLockStatus(), context.signal).catch(() => {
      throw error;
    });
  }
}

/** Runs one command and parses its stdout; either step failing is a warning (run, then read purpose) and null. */
async function runParsed<T>(
  context: ProbeContext,
  spec: CommandSpec,
  [runPurpose, readPurpose]: readonly [string, string],
  parse: (stdout: string) => T,
): Promise<T | null> {
  const output = await tryRun(context, spec, runPurpose);
  return output === null
    ? null
    : attempt(context, spec.tool, readPurpose, () => Promise.resolve(parse(output.stdout)));
}

/**
 * The Windows probe set: one PowerShell storage pipeline, fsutil for TRIM, manage-bde -status for
 * BitLocker (the cmdlet's answer is preferred, manage-bde covers machines without the BitLocker module),
 * smartctl where installed. BitLocker volumes are kept when a partition of this disk has their drive
 * letter, or all of them (with a warning) when the partitions are unknown.
 */
export async function probeWindowsStorage(context: ProbeContext, identifier: string): Promise<StorageModel> {
  const number = diskNumberOf(identifier);
  const storageOutput = await attempt(
    context,
    'powershell',
    'Reading disks, partitions, volumes and BitLocker from PowerShell',
    () => runStorageScript(context),
  );
  const storage =
    storageOutput === null
      ? null
      : await attempt(context, 'powershell', 'Reading the PowerShell storage document', () =>
          Promise.resolve(parseWindowsStorageJson(storageOutput.stdout)),
        );
  const trim = await runParsed(
    context,
    WINDOWS_COMMANDS.fsutil(),
    ['Asking fsutil whether TRIM is sent', 'Reading DisableDeleteNotify'],
    parseDisableDeleteNotify,
  );
  const bde = await runParsed(
    context,
    WINDOWS_COMMANDS.manageBde(),
    ['Asking manage-bde for BitLocker status', 'Reading manage-bde -status'],
    parseManageBdeStatus,
  );
  const disk = storage?.disks.find((candidate) => candidate.number === number) ?? null;
  if (storage !== null && storage.disks.length > 0 && disk === null) {
    throw new EncplanError('DEVICE_NOT_FOUND', `Windows has no disk number ${String(number)}.`, {
      hint: `Disks present: ${storage.disks.map((d) => d.number).join(', ')}.`,
    });
  }
  const partitions = storage?.partitions.filter((partition) => partition.diskNumber === number) ?? [];
  const letters = new Set(
    partitions.flatMap((partition) => (partition.driveLetter === null ? [] : [`${partition.driveLetter}:`])),
  );
  const allBitLocker =
    storage !== null && storage.bitLocker.length > 0
      ? storage.bitLocker.map(fromCmdlet)
      : (bde ?? []).map(fromManageBde);
  if (partitions.length === 0 && allBitLocker.length > 0) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message:
        "The partitions of this disk are unknown, so every BitLocker volume of the machine is listed, not only this disk's.",
      source: 'manage-bde',
    });
  }
  const encryption =
    partitions.length === 0
      ? allBitLocker
      : allBitLocker.filter((volume) => letters.has(volume.volume.toUpperCase()));
  // manage-bde -status lists every volume, BitLocker or not; the pipeline swallows Get-BitLockerVolume's
  // failure (it needs an administrator) into an empty list. So only an answer of either tool is a reading.
  const encryptionUnknown =
    bde !== null || (storage !== null && storage.bitLocker.length > 0)
      ? null
      : `Neither Get-BitLockerVolume nor manage-bde -status answered${storage?.administrator === false ? ' (PowerShell did not run as an administrator, which both need)' : ''}, so whether BitLocker protects a volume of this disk is unknown.`;
  const reliability = storage?.reliability.find((counter) => counter.deviceId === String(number)) ?? null;
  const health =
    (await smartctlHealth(context, `/dev/pd${String(number)}`)) ??
    statusOnlyHealth(disk?.healthStatus ?? null, 'Get-PhysicalDisk', {
      wearPercent: reliability?.wearPercent ?? null,
      temperatureCelsius: reliability?.temperatureCelsius ?? null,
      powerOnHours: reliability?.powerOnHours ?? null,
      mediaErrors:
        reliability === null || reliability.readErrorsTotal === null || reliability.writeErrorsTotal === null
          ? null
          : reliability.readErrorsTotal + reliability.writeErrorsTotal,
    });
  const medium = disk?.mediaType === 'SSD' ? 'ssd' : disk?.mediaType === 'HDD' ? 'hdd' : 'unknown';
  const diskId = `\\\\.\\PhysicalDrive${String(number)}`;
  const entries = partitions.map((partition) => ({
    id: `${String(partition.diskNumber)}:${String(partition.partitionNumber)}`,
    number: partition.partitionNumber,
    type: partition.type,
    sizeBytes: partition.sizeBytes,
    encryption: null,
    label: partition.label,
    mountpoint:
      partition.driveLetter === null ? (partition.accessPaths[0] ?? null) : `${partition.driveLetter}:`,
  }));
  return {
    platform: 'win32',
    disk: {
      id: diskId,
      model: disk?.friendlyName ?? null,
      sizeBytes: disk?.sizeBytes ?? null,
      medium,
      bus: disk?.busType ?? null,
      encryption: null,
      source: 'Get-Disk',
      internal:
        disk?.busType === null || disk === null ? null : !['USB', 'SD', 'MMC', '1394'].includes(disk.busType),
      partitionStyle: disk?.partitionStyle ?? null,
      logicalSectorBytes: disk?.logicalSectorBytes ?? null,
      health,
      // Windows sends TRIM for NTFS when DisableDeleteNotify is 0 (Microsoft Learn, "fsutil behavior"); whether
      // the drive takes it is the drive's media type: Windows trims SSDs (MediaType SSD).
      trim: {
        driveSupports: medium === 'ssd' ? true : medium === 'hdd' ? false : null,
        osSends: trim?.ntfsTrimEnabled ?? null,
        source: trim === null ? null : 'fsutil',
      },
    },
    partitions: entries,
    ...windowsLayout(diskId, entries, encryption, encryptionUnknown === null),
    encryptionUnknown,
    reclaim: null,
    fileVault: null,
    cpu: { aes: null, appleSilicon: false, source: null },
  };
}
