import type { StorageModel } from '../../domain/storage-model.js';
import { EncplanError } from '../../errors.js';
import {
  parseDiskutilApfsList,
  type ApfsContainer,
} from '../../parsers/diskutil/parse-diskutil-apfs-list.js';
import { parseDiskutilInfo, type DiskutilInfo } from '../../parsers/diskutil/parse-diskutil-info.js';
import { parseDiskutilList } from '../../parsers/diskutil/parse-diskutil-list.js';
import { parseFdesetupStatus } from '../../parsers/fdesetup/parse-fdesetup-status.js';
import { parseSysctlCpu } from '../../parsers/sysctl/parse-sysctl-cpu.js';
import {
  parseSystemProfilerJson,
  type SystemProfilerStorage,
} from '../../parsers/system-profiler/parse-system-profiler.js';
import type { CommandSpec } from '../../ports.js';
import { apfsReadingOf, darwinLayout, type ApfsReading } from '../../targets/apfs/volume-state.js';
import { smartctlHealth, statusOnlyHealth } from '../platform-health.js';
import { attempt, tryRun, type ProbeContext } from '../probe-context.js';

const TIMEOUT_MS = 30_000;

/** The commands of the macOS probe set, exactly as run (bundles replay them by these argv). */
export const DARWIN_COMMANDS = {
  info: (identifier: string): CommandSpec => ({
    tool: 'diskutil',
    args: ['info', '-plist', identifier],
    timeoutMs: TIMEOUT_MS,
  }),
  list: (identifier: string): CommandSpec => ({
    tool: 'diskutil',
    args: ['list', '-plist', identifier],
    timeoutMs: TIMEOUT_MS,
  }),
  apfsList: (): CommandSpec => ({
    tool: 'diskutil',
    args: ['apfs', 'list', '-plist'],
    timeoutMs: TIMEOUT_MS,
  }),
  systemProfiler: (): CommandSpec => ({
    tool: 'system_profiler',
    args: [
      'SPNVMeDataType',
      'SPSerialATADataType',
      'SPUSBDataType',
      'SPThunderboltDataType',
      'SPStorageDataType',
      '-json',
    ],
    timeoutMs: 60_000,
  }),
  fdesetup: (): CommandSpec => ({ tool: 'fdesetup', args: ['status'], timeoutMs: TIMEOUT_MS }),
  sysctl: (): CommandSpec => ({
    tool: 'sysctl',
    args: ['machdep.cpu', 'hw.optional'],
    timeoutMs: TIMEOUT_MS,
  }),
} as const;

async function runParsed<T>(
  context: ProbeContext,
  spec: CommandSpec,
  purpose: string,
  parse: (text: string) => T,
): Promise<T | null> {
  const output = await tryRun(context, spec, purpose);
  if (output === null) {
    return null;
  }
  // diskutil prints its error document on stdout with exit status 1: the parser turns it into TOOL_FAILED.
  return attempt(context, spec.tool, purpose, () => Promise.resolve(parse(output.stdout)));
}

/** The whole physical disk under an identifier: disk1s5 → disk1 → (APFS physical store disk0s2) → disk0. */
function physicalDiskOf(info: DiskutilInfo): string {
  const store = info.apfsPhysicalStores[0];
  if (store !== undefined) {
    return /^(disk\d+)/.exec(store)?.[1] ?? store;
  }
  return info.parentWholeDisk ?? info.deviceIdentifier;
}

function encryptionOf(
  containers: readonly ApfsContainer[],
  physicalDisk: string,
  aesHardware: boolean | null,
): ApfsReading[] {
  return containers
    .filter((container) =>
      container.physicalStores.some(
        (store) => store === physicalDisk || store.startsWith(`${physicalDisk}s`),
      ),
    )
    .flatMap((container) => container.volumes)
    .map((volume) =>
      apfsReadingOf(
        { ...volume, volume: volume.deviceIdentifier },
        {
          converting: volume.cryptoMigrationOn === true,
          hardware: aesHardware,
          roles: [...volume.roles],
          source: 'diskutil apfs list',
        },
      ),
    );
}

function encryptionFromInfo(info: DiskutilInfo): ApfsReading[] {
  if (info.encryption === null && info.fileVault === null) {
    return [];
  }
  return [
    apfsReadingOf(
      { ...info, volume: info.deviceIdentifier, name: info.volumeName },
      { converting: false, hardware: info.aesHardware, roles: [], source: 'diskutil info' },
    ),
  ];
}

/**
 * The macOS probe set: diskutil (info, list, apfs list), system_profiler, fdesetup, sysctl and smartctl
 * where installed. Each missing or failing tool costs its facts and a warning; with neither diskutil nor
 * system_profiler knowing the disk it throws DEVICE_NOT_FOUND.
 */
export async function probeDarwinStorage(context: ProbeContext, identifier: string): Promise<StorageModel> {
  const name = identifier.replace(/^\/dev\/r?/, '');
  const targetInfo = await runParsed(
    context,
    DARWIN_COMMANDS.info(name),
    `Reading diskutil info of ${name}`,
    parseDiskutilInfo,
  );
  const physicalDisk = targetInfo === null ? name : physicalDiskOf(targetInfo);
  const diskInfo =
    targetInfo !== null && physicalDisk === targetInfo.deviceIdentifier
      ? targetInfo
      : await runParsed(
          context,
          DARWIN_COMMANDS.info(physicalDisk),
          `Reading diskutil info of ${physicalDisk}`,
          parseDiskutilInfo,
        );
  const list = await runParsed(
    context,
    DARWIN_COMMANDS.list(physicalDisk),
    `Listing the partitions of ${physicalDisk}`,
    parseDiskutilList,
  );
  const apfs = await runParsed(
    context,
    DARWIN_COMMANDS.apfsList(),
    'Listing APFS containers and volumes',
    parseDiskutilApfsList,
  );
  const profiler: SystemProfilerStorage | null = await runParsed(
    context,
    DARWIN_COMMANDS.systemProfiler(),
    'Reading drives from system_profiler',
    parseSystemProfilerJson,
  );
  const fileVault = await runParsed(
    context,
    DARWIN_COMMANDS.fdesetup(),
    'Asking fdesetup whether FileVault is on',
    parseFdesetupStatus,
  );
  const cpu = await runParsed(context, DARWIN_COMMANDS.sysctl(), 'Reading CPU features', parseSysctlCpu);
  const drive = profiler?.drives.find((candidate) => candidate.bsdName === physicalDisk) ?? null;
  const info = diskInfo ?? targetInfo;
  if (info === null && drive === null) {
    throw new EncplanError('DEVICE_NOT_FOUND', `Neither diskutil nor system_profiler knows ${name}.`, {
      hint: 'Give a disk identifier from `diskutil list`, such as disk0.',
    });
  }
  const aesHardware = info?.aesHardware ?? null;
  const fromApfs = apfs === null ? [] : encryptionOf(apfs, physicalDisk, aesHardware);
  const encryption =
    fromApfs.length > 0 ? fromApfs : targetInfo === null ? [] : encryptionFromInfo(targetInfo);
  // `diskutil apfs list` names every APFS volume with its FileVault and encryption state; without it (and
  // without diskutil info's own encryption keys) an empty list is unknown, not "none".
  const encryptionUnknown =
    apfs !== null || encryption.length > 0
      ? null
      : `Neither diskutil apfs list nor diskutil info told the encryption state of ${physicalDisk}'s volumes${fileVault === null ? ', and fdesetup status did not answer' : ''}, so whether they are encrypted is unknown.`;
  const solidState =
    info?.solidState ?? (drive?.medium === null || drive === null ? null : drive.medium === 'ssd');
  const smartStatus = info?.smartStatus ?? drive?.smartStatus ?? null;
  const health =
    (await smartctlHealth(context, `/dev/${physicalDisk}`)) ??
    statusOnlyHealth(
      smartStatus,
      info?.smartStatus !== undefined && info.smartStatus !== null ? 'diskutil info' : 'system_profiler',
    );
  const listed = list?.disks.find((disk) => disk.deviceIdentifier === physicalDisk)?.partitions;
  const partitions = (
    listed ??
    drive?.partitions.map((partition) => ({
      deviceIdentifier: partition.bsdName ?? '',
      content: partition.content,
      sizeBytes: partition.sizeBytes,
      volumeName: partition.name,
      mountPoint: null,
    })) ??
    []
  ).map((partition, index) => ({
    id: partition.deviceIdentifier,
    number: index + 1,
    type: partition.content,
    sizeBytes: partition.sizeBytes,
    encryption: null,
    label: partition.volumeName,
    mountpoint: partition.mountPoint,
  }));
  // Without sysctl, the iBoot System Container partition (Apple_APFS_ISC) still proves Apple silicon: only
  // those Macs have it (Apple Platform Security guide, "Boot process for a Mac with Apple silicon"), and every
  // Apple silicon core has the Armv8 AES instructions (FEAT_AES). Its absence proves nothing (an external disk).
  const iscPartition = partitions.some((partition) => partition.type === 'Apple_APFS_ISC');
  const cpuFacts =
    cpu !== null
      ? { aes: cpu.aes, appleSilicon: cpu.appleSilicon, source: 'sysctl' }
      : iscPartition
        ? {
            aes: true,
            appleSilicon: true,
            source: listed === undefined ? 'system_profiler' : 'diskutil list',
          }
        : { aes: null, appleSilicon: null, source: null };
  return {
    platform: 'darwin',
    disk: {
      id: physicalDisk,
      model: info?.mediaName ?? drive?.model ?? null,
      sizeBytes: diskInfo?.sizeBytes ?? drive?.sizeBytes ?? list?.disks[0]?.sizeBytes ?? null,
      medium: solidState === null ? 'unknown' : solidState ? 'ssd' : 'hdd',
      bus: info?.busProtocol ?? drive?.dataType.replace(/^SP|DataType$/g, '') ?? null,
      encryption: null,
      source: info === null ? 'system_profiler' : 'diskutil info',
      internal: info?.internal ?? (drive?.removable === null || drive === null ? null : !drive.removable),
      partitionStyle: list?.disks[0]?.content ?? null,
      logicalSectorBytes: info?.blockSizeBytes ?? null,
      health,
      trim: {
        driveSupports: drive?.trimSupported ?? null,
        osSends: drive?.trimSupported ?? null,
        source: drive === null ? null : 'system_profiler',
      },
    },
    partitions,
    ...darwinLayout(physicalDisk, partitions, encryption),
    encryptionUnknown,
    reclaim: null,
    fileVault: fileVault?.state ?? null,
    cpu: cpuFacts,
  };
}
