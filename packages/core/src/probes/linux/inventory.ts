import { EncplanError } from '../../errors.js';
import {
  STACK_NODE_TYPES,
  type Disk,
  type Filesystem,
  type Partition,
  type StackNode,
  type StackNodeType,
  type Transport,
} from '../../domain/device.js';
import { VERACRYPT_MAPPING } from '../../domain/storage-model.js';
import { parseVeracryptList, type VeracryptVolume } from '../../parsers/veracrypt/parse-veracrypt-list.js';
import type { EncryptionInventory, ExistingEncryption } from '../../domain/encryption.js';
import { protectIdentifier } from '../../domain/identifier.js';
import type { SpaceInput } from '../../domain/space.js';
import {
  parseBlkidExport,
  parseBlkidExportDevices,
  type BlkidProbe,
} from '../../parsers/blkid/parse-blkid-export.js';
import { parseLuks2JsonMetadata, parseLuksDumpText } from '../../parsers/cryptsetup/parse-luks-dump.js';
import { parseLsblkJson, type LsblkDevice } from '../../parsers/lsblk/parse-lsblk-json.js';
import { parseMountinfo } from '../../parsers/proc/mountinfo.js';
import { parseSfdiskJson, type SfdiskTable } from '../../parsers/sfdisk/parse-sfdisk-json.js';
import { addWarning, attempt, tryRun, tryRunOrUncaptured, type ProbeContext } from '../probe-context.js';
import type { ResolvedTarget } from './resolve-target.js';
import { readAttribute, readDiscardLimits, readNumber, sysBlockPath } from './sysfs.js';
import { blkidSignaturesCall, lsblkDiskCall, sfdiskCall } from './disk-calls.js';

/** What the Linux inventory finds: the disk, its partitions, the stack above it, encryption, space. */
export interface LinuxInventory {
  readonly disk: Disk;
  readonly partitions: Partition[];
  readonly stack: StackNode;
  readonly encryption: EncryptionInventory;
  /** What the space section is computed from (analyses/space.ts). */
  readonly spaceInput: SpaceInput;
  /** What sysfs says about the media, beside what the rotational flag claims. */
  readonly media: { readonly kind: 'ssd' | 'hdd' | 'unknown'; readonly reason: string };
  /**
   * For each LVM, MD or other device-mapper node: the devices below it that are not on this disk (sysfs
   * slaves/, e.g. the other physical volumes of a volume group). A node sysfs did not answer for is absent.
   */
  readonly otherDisks: ReadonlyMap<string, readonly string[]>;
}

/** lsblk types of nodes that can span several devices (LVM, MD RAID, other device-mapper targets). */
const MULTI_DEVICE = /^(lvm|dm|md|raid\d+)$/;

/** The devices below each multi-device node that are not nodes of this disk (sysfs slaves/). */
async function otherDisksOf(
  host: ProbeContext['host'],
  nodes: readonly LsblkDevice[],
): Promise<ReadonlyMap<string, readonly string[]>> {
  const mine = new Set(nodes.map((node) => node.kernelName));
  const spans = new Map<string, readonly string[]>();
  for (const node of nodes.filter((candidate) => MULTI_DEVICE.test(candidate.type))) {
    const slaves = await host.listDir(`${sysBlockPath(node.kernelName)}/slaves`);
    if (slaves !== null) {
      spans.set(
        node.path,
        slaves.filter((slave) => !mine.has(slave)).map((slave) => `/dev/${slave}`),
      );
    }
  }
  return spans;
}

/** Mount points that make a disk the system disk: refusing destructive work on it depends on this. */
export const SYSTEM_MOUNTPOINTS = new Set([
  '/',
  '/boot',
  '/boot/efi',
  '/efi',
  '/usr',
  '/var',
  '/home',
  '[SWAP]',
]);

const TIMEOUT_MS = 15_000;

/** How a device is attached, from lsblk's TRAN, else its SUBSYSTEMS and kernel name. */
export function transportOf(device: LsblkDevice): Transport {
  const tran = device.transport?.toLowerCase() ?? null;
  const known: readonly Transport[] = ['nvme', 'sata', 'sas', 'usb', 'mmc', 'virtio', 'ata', 'scsi'];
  if (tran !== null && (known as readonly string[]).includes(tran)) {
    return tran as Transport;
  }
  if (device.type === 'loop' || device.kernelName.startsWith('loop')) {
    return 'loop';
  }
  // virtio-blk has no `tran`; lsblk's SUBSYSTEMS ("block:virtio:pci") or the vdX name tell it.
  if (device.subsystems?.split(':').includes('virtio') === true || /^vd[a-z]+$/.test(device.kernelName)) {
    return 'virtio';
  }
  if (device.kernelName.startsWith('nvme')) {
    return 'nvme';
  }
  if (device.kernelName.startsWith('mmcblk')) {
    return 'mmc';
  }
  if (device.kernelName.startsWith('md')) {
    return 'md';
  }
  if (device.kernelName.startsWith('dm-')) {
    return 'dm';
  }
  return 'unknown';
}

/** lsblk's TYPE as the domain names it; a type the domain does not know is `other`. */
function stackTypeOf(lsblkType: string): StackNodeType {
  return STACK_NODE_TYPES.find((type) => type === lsblkType) ?? 'other';
}

function flatten(device: LsblkDevice): LsblkDevice[] {
  return [device, ...device.children.flatMap(flatten)];
}

/** Media kind from sysfs, refusing to trust the rotational flag of virtual disks. */
function mediaOf(transport: Transport, rotational: boolean): LinuxInventory['media'] {
  if (transport === 'virtio' || transport === 'loop') {
    return {
      kind: 'unknown',
      reason: `A ${transport} device's rotational flag describes nothing real; the host's media decides speed and wear.`,
    };
  }
  if (transport === 'nvme') {
    return { kind: 'ssd', reason: 'NVMe devices are flash.' };
  }
  return rotational
    ? { kind: 'hdd', reason: 'sysfs queue/rotational is 1.' }
    : { kind: 'ssd', reason: 'sysfs queue/rotational is 0.' };
}

/** blkid's answer is data when it exits 0 (found) or 2 with nothing on stderr (nothing found, blkid(8)). */
function blkidAnswered(output: { exitCode: number; stderr: string }): boolean {
  return output.exitCode === 0 || (output.exitCode === 2 && output.stderr.trim() === '');
}

function blkidFailed(context: ProbeContext, path: string, reason: string): null {
  addWarning(context, {
    code: 'TOOL_FAILED',
    message: `blkid could not read ${path} (${reason}); its filesystem or partition table is unknown.`,
    source: 'blkid',
  });
  return null;
}

async function probeBlkid(context: ProbeContext, path: string): Promise<BlkidProbe | null> {
  const output = await tryRun(context, blkidSignaturesCall([path]), `Reading signatures on ${path}`);
  if (output === null) {
    return null;
  }
  // blkid exits 2 both when it finds nothing (silently: an answer, "no signature") and when it cannot
  // open the device (with a message such as "Operation not permitted": no answer at all).
  if (!blkidAnswered(output)) {
    return blkidFailed(context, path, output.stderr.trim() || `exit ${output.exitCode}`);
  }
  return parseBlkidExport(output.stdout);
}

/**
 * Signatures of several devices with one `blkid -p -o export -- DEV…` (a block per device with DEVNAME).
 * blkid's low-level probe stops at the first device it finds nothing on or cannot read (util-linux 2.38.1,
 * fixtures/blkid/loop-nothing-found-first-stops-the-probe: a blank device first, a LUKS2 one second → no block
 * at all, exit 2, nothing on stderr). So the first device without a block is the one that ended the run:
 * "nothing found" when blkid said nothing on stderr, unknown (null) with the warning otherwise, and blkid is
 * asked again for the devices after it. One call when every device has a signature (partitions always have
 * their PART_ENTRY_* values), one more per device that has none. A bundle collected when encplan asked blkid
 * once per device replays that way.
 */
async function probeBlkidAll(
  context: ProbeContext,
  paths: readonly string[],
): Promise<Map<string, BlkidProbe | null>> {
  const found = new Map<string, BlkidProbe | null>();
  let rest = [...paths];
  while (rest.length > 0) {
    const output = await tryRunOrUncaptured(
      context,
      blkidSignaturesCall(rest),
      `Reading signatures on ${rest.join(' ')}`,
    );
    if (output === 'uncaptured') {
      for (const path of rest) {
        found.set(path, await probeBlkid(context, path));
      }
      return found;
    }
    if (output === null) {
      rest.forEach((path) => found.set(path, null));
      return found;
    }
    const blocks = parseBlkidExportDevices(output.stdout);
    const stop = rest.findIndex((path) => !blocks.has(path));
    rest
      .slice(0, stop === -1 ? rest.length : stop)
      .forEach((path) => found.set(path, blocks.get(path) ?? null));
    if (stop === -1) {
      return found;
    }
    const ended = rest[stop] as string;
    const complaint = output.stderr.trim();
    found.set(
      ended,
      complaint === '' && blkidAnswered(output)
        ? parseBlkidExport('')
        : blkidFailed(context, ended, complaint || `exit ${String(output.exitCode)}`),
    );
    rest = rest.slice(stop + 1);
  }
  return found;
}

/**
 * The filesystem type the kernel mounted from each device (major:minor → type), from /proc/self/mountinfo
 * (proc(5)): evidence of a filesystem when lsblk has no signature (no udev) and blkid may not read the device
 * (a sandbox denies raw opens). A mounted filesystem is data, whatever the signature probes could read.
 */
async function mountedFilesystemTypes(context: ProbeContext): Promise<ReadonlyMap<string, string>> {
  const text = await attempt(context, '/proc/self/mountinfo', 'Reading the mount table', () =>
    context.host.readText('/proc/self/mountinfo'),
  );
  const entries =
    text === null
      ? []
      : ((await attempt(context, '/proc/self/mountinfo', 'Reading the mount table', () =>
          Promise.resolve(parseMountinfo(text)),
        )) ?? []);
  return new Map(entries.map((entry) => [entry.deviceNumber, entry.filesystemType]));
}

function filesystemOf(
  device: LsblkDevice,
  blkid: BlkidProbe | null,
  mounted: ReadonlyMap<string, string>,
): Filesystem | null {
  const type = device.filesystemType ?? blkid?.type ?? mounted.get(device.deviceNumber) ?? null;
  if (type === null) {
    return null;
  }
  return {
    type,
    version: device.filesystemVersion ?? blkid?.version ?? null,
    label: device.label ?? blkid?.label ?? null,
    uuid: device.uuid ?? blkid?.uuid ?? null,
    availableBytes: device.filesystemAvailableBytes,
    usedPercent: device.filesystemUsedPercent,
  };
}

/**
 * `veracrypt --text --list --verbose` (the VeraCrypt command line's list of mounted volumes; the same argv the
 * benchmark's VeraCrypt backend uses); empty when veracrypt is absent or answers nothing usable.
 */
async function listVeracrypt(context: ProbeContext): Promise<readonly VeracryptVolume[]> {
  if ((await context.host.whichTool('veracrypt')) === null) {
    return [];
  }
  const output = await tryRun(
    context,
    {
      tool: 'veracrypt',
      args: ['--text', '--list', '--verbose', '--non-interactive'],
      timeoutMs: TIMEOUT_MS,
    },
    'Listing the open VeraCrypt volumes',
  );
  if (output === null || output.exitCode !== 0) {
    return [];
  }
  return (
    (await attempt(context, 'veracrypt', 'Reading veracrypt --list', () =>
      Promise.resolve(parseVeracryptList(output.stdout)),
    )) ?? []
  );
}

async function probeLuks(
  context: ProbeContext,
  path: string,
  version: string | null,
): Promise<ExistingEncryption | null> {
  const json = version === '2';
  const args = json ? ['luksDump', '--dump-json-metadata', '--', path] : ['luksDump', '--', path];
  const output = await tryRun(
    context,
    { tool: 'cryptsetup', args, timeoutMs: TIMEOUT_MS },
    `Reading the LUKS header of ${path}`,
  );
  if (output === null) {
    return null;
  }
  if (output.exitCode !== 0) {
    addWarning(context, {
      code: 'TOOL_FAILED',
      message: `cryptsetup luksDump ${path} failed: ${output.stderr.trim()}`,
      source: 'cryptsetup',
    });
    return null;
  }
  const header = await attempt(context, 'cryptsetup', `Reading the LUKS header of ${path}`, () =>
    Promise.resolve(json ? parseLuks2JsonMetadata(output.stdout) : parseLuksDumpText(output.stdout)),
  );
  return header === null ? null : { ...header, path, source: `cryptsetup ${args.slice(0, -2).join(' ')}` };
}

/** `lsblk --json --bytes -O -- PATH`: the disk and everything stacked on it. Throws when lsblk cannot list it. */
async function listDisk(context: ProbeContext, path: string): Promise<LsblkDevice> {
  const { host } = context;
  const lsblkOutput = await host.run(lsblkDiskCall(path), context.signal);
  if (lsblkOutput.exitCode !== 0) {
    const reason = lsblkOutput.stderr.trim();
    if (reason === '' && (await host.stat(path)) === null) {
      throw new EncplanError(
        'DEVICE_NOT_FOUND',
        `${path} disappeared while lsblk was listing it (detached or removed).`,
        {
          hint: 'Attach or reconnect the disk and run encplan again.',
        },
      );
    }
    throw new EncplanError(
      'TOOL_FAILED',
      `lsblk could not list ${path}: ${reason === '' ? `it exited with status ${String(lsblkOutput.exitCode)} and gave no reason (was the device detached while it was read?)` : reason}`,
      { details: { tool: 'lsblk', exitCode: lsblkOutput.exitCode } },
    );
  }
  const [root] = parseLsblkJson(lsblkOutput.stdout);
  if (root === undefined) {
    throw new EncplanError('DEVICE_NOT_FOUND', `lsblk does not list ${path}.`);
  }
  return root;
}

/** `lsblk --json --bytes -O` of the whole machine, once (`assess --all`): every top-level device and its stack. */
export async function listMachineBlockDevices(context: ProbeContext): Promise<LsblkDevice[]> {
  const output = await context.host.run(
    { tool: 'lsblk', args: ['--json', '--bytes', '-O'], timeoutMs: TIMEOUT_MS },
    context.signal,
  );
  if (output.exitCode !== 0) {
    throw new EncplanError(
      'TOOL_FAILED',
      `lsblk could not list the machine's block devices: ${output.stderr.trim() || `exit ${String(output.exitCode)}`}`,
      { details: { tool: 'lsblk', exitCode: output.exitCode } },
    );
  }
  return parseLsblkJson(output.stdout);
}

/**
 * Inventories a whole disk on Linux from `lsblk --json --bytes -O`, sysfs, `blkid -p`, `sfdisk --json`
 * and `cryptsetup luksDump`. lsblk is required (util-linux is on every Linux); everything else degrades
 * to warnings. Serials are hashed unless `includeSerials`.
 */
export async function probeLinuxInventory(
  context: ProbeContext,
  target: ResolvedTarget,
  options: {
    includeSerials: boolean;
    /** The disk as the machine-wide lsblk listed it (`assess --all`): no lsblk of its own then. */
    lsblkDevice?: LsblkDevice;
  },
): Promise<LinuxInventory> {
  const { host } = context;
  const root = options.lsblkDevice ?? (await listDisk(context, target.path));
  const nodes = flatten(root);
  // udev normally hands lsblk the signatures; without udev (containers, initramfs) ask blkid directly, once
  // for every device of the disk that lacks them.
  const blkidByPath = await probeBlkidAll(
    context,
    nodes
      .filter((node) => node.filesystemType === null || node.partitionTableType === null)
      .map((node) => node.path),
  );
  const mounted = await mountedFilesystemTypes(context);

  const base = sysBlockPath(root.kernelName);
  const [rotationalFlag, removable, readOnly, logical, physical, minimumIo, optimalIo] = await Promise.all([
    readNumber(host, `${base}/queue/rotational`),
    readNumber(host, `${base}/removable`),
    readNumber(host, `${base}/ro`),
    readNumber(host, `${base}/queue/logical_block_size`),
    readNumber(host, `${base}/queue/physical_block_size`),
    readNumber(host, `${base}/queue/minimum_io_size`),
    readNumber(host, `${base}/queue/optimal_io_size`),
  ]);
  const transport = transportOf(root);
  const rotational = rotationalFlag === null ? (root.rotational ?? false) : rotationalFlag === 1;

  const tableOutput = await tryRun(context, sfdiskCall(target.path), 'Reading the partition table');
  let table: SfdiskTable | null = null;
  if (tableOutput !== null && tableOutput.exitCode === 0) {
    table = await attempt(context, 'sfdisk', 'Reading the partition table', () =>
      Promise.resolve(parseSfdiskJson(tableOutput.stdout)),
    );
  } else if (
    tableOutput !== null &&
    !/does not contain a recognized partition table/.test(tableOutput.stderr)
  ) {
    addWarning(context, {
      code: 'TOOL_FAILED',
      message: `sfdisk could not read the partition table: ${tableOutput.stderr.trim()}`,
      source: 'sfdisk',
    });
  }

  const stackOf = async (device: LsblkDevice, parentDiscard: StackNode['discard']): Promise<StackNode> => {
    const sys = sysBlockPath(device.kernelName);
    // Partitions have no queue/ of their own: they inherit the disk's limits.
    const discard = (await readDiscardLimits(host, device.kernelName)) ?? parentDiscard;
    const [mapperName, dmUuid, backingFile] = await Promise.all([
      readAttribute(host, `${sys}/dm/name`),
      readAttribute(host, `${sys}/dm/uuid`),
      readAttribute(host, `${sys}/loop/backing_file`),
    ]);
    const children: StackNode[] = [];
    for (const child of device.children) {
      children.push(await stackOf(child, discard));
    }
    return {
      kernelName: device.kernelName,
      path: device.path,
      type: stackTypeOf(device.type),
      deviceNumber: device.deviceNumber,
      sizeBytes: device.sizeBytes,
      mapperName: mapperName === '' ? null : mapperName,
      dmUuid: dmUuid === '' ? null : dmUuid,
      filesystem: filesystemOf(device, blkidByPath.get(device.path) ?? null, mounted),
      mountpoints: [...device.mountpoints],
      readOnly: device.readOnly ?? false,
      discard,
      backingFile: backingFile === '' ? null : backingFile,
      children,
    };
  };
  const stack = await stackOf(root, null);

  const sectorBytes = table?.sectorBytes ?? logical ?? root.logicalSectorBytes ?? 512;
  const partitionNodes = root.children.filter((child) => child.type === 'part');
  const partitions: Partition[] = [];
  for (const node of partitionNodes) {
    const entry = table?.partitions.find(
      (part) => part.node === node.path || part.node.endsWith(`/${node.kernelName}`),
    );
    // Without the table: lsblk's START, else sysfs `start`; both count 512-byte units whatever the
    // logical sector size (block/partitions code).
    const start512 =
      entry === undefined
        ? (node.startSectors ?? (await readNumber(host, `${sysBlockPath(node.kernelName)}/start`)))
        : null;
    if (entry === undefined && start512 === null) {
      addWarning(context, {
        code: 'DATA_INCONSISTENT',
        message: `The start of ${node.path} is unknown; space figures assume it starts at 0.`,
        source: 'lsblk',
      });
    }
    const number = /(\d+)$/.exec(node.kernelName)?.[1];
    partitions.push({
      path: node.path,
      kernelName: node.kernelName,
      number: number === undefined ? 0 : Number(number),
      startBytes: entry === undefined ? (start512 ?? 0) * 512 : entry.startSectors * sectorBytes,
      sizeBytes: entry === undefined ? node.sizeBytes : entry.sizeSectors * sectorBytes,
      name: entry?.name ?? node.partitionLabel,
      typeId: entry?.type ?? node.partitionTypeId,
      filesystem: filesystemOf(node, blkidByPath.get(node.path) ?? null, mounted),
      mountpoints: flatten(node).flatMap((n) => n.mountpoints),
    });
  }

  const rootBlkid = blkidByPath.get(root.path) ?? null;
  const tableLabel = table?.label ?? root.partitionTableType ?? rootBlkid?.partitionTableType ?? null;
  const mountpoints = nodes.flatMap((node) => node.mountpoints);
  const swaps = await host.readText('/proc/swaps');
  const usedAsSwap = nodes.some(
    (node) => swaps?.split('\n').some((line) => line.startsWith(`${node.path} `)) === true,
  );

  const found: ExistingEncryption[] = [];
  let veracryptList: readonly VeracryptVolume[] | undefined;
  for (const node of nodes) {
    const blkid = blkidByPath.get(node.path) ?? null;
    const type = node.filesystemType ?? blkid?.type ?? null;
    if (type === 'crypto_LUKS') {
      const luks = await probeLuks(context, node.path, node.filesystemVersion ?? blkid?.version ?? null);
      if (luks !== null) {
        found.push(luks);
      }
    } else if (type === 'BitLocker') {
      found.push({
        path: node.path,
        format: 'bitlocker',
        cipher: null,
        keyBits: null,
        sectorBytes: null,
        pbkdf: [],
        flags: [],
        source: 'blkid',
      });
    } else if (node.type === 'dm' && VERACRYPT_MAPPING.test(node.name)) {
      // An open VeraCrypt volume: its dm mapping has no CRYPT- UUID (VeraCrypt CoreLinux.cpp runs
      // `dmsetup create veracryptN` without --uuid), so lsblk types it "dm"; its name is the evidence, and
      // `veracrypt --list` (when installed) names its cipher. The volume found is the device it was opened
      // from, as for a LUKS header.
      const holder = nodes.find((candidate) => candidate.children.includes(node));
      veracryptList ??= await listVeracrypt(context);
      const listed = veracryptList.find((volume) => volume.virtualDevice === `/dev/mapper/${node.name}`);
      found.push({
        path: holder?.path ?? node.path,
        format: 'tcrypt',
        cipher:
          listed?.encryptionAlgorithm === null || listed === undefined
            ? null
            : [listed.encryptionAlgorithm, listed.mode].filter((part) => part !== null).join('-'),
        keyBits: listed?.keyBits ?? null,
        sectorBytes: null,
        pbkdf: [],
        flags: [],
        source:
          listed === undefined ? `dm name ${node.name} (VeraCrypt)` : 'veracrypt --text --list --verbose',
      });
    } else if (node.type === 'crypt' && stack !== null) {
      const uuid = await readAttribute(host, `${sysBlockPath(node.kernelName)}/dm/uuid`);
      if (uuid?.startsWith('CRYPT-TCRYPT') === true) {
        found.push({
          path: node.path,
          format: 'tcrypt',
          cipher: null,
          keyBits: null,
          sectorBytes: null,
          pbkdf: [],
          flags: [],
          source: 'sysfs dm/uuid',
        });
      }
    }
  }

  const disk: Disk = {
    path: root.path,
    kernelName: root.kernelName,
    deviceNumber: root.deviceNumber,
    model: root.model ?? (await readAttribute(host, `${base}/device/model`)),
    vendor: root.vendor ?? (await readAttribute(host, `${base}/device/vendor`)),
    serial: await protectIdentifier(root.serial, options.includeSerials),
    wwn: await protectIdentifier(root.wwn, options.includeSerials),
    firmware: root.revision,
    transport,
    rotational,
    removable: (removable ?? 0) === 1 || root.removable === true,
    readOnly: (readOnly ?? 0) === 1 || root.readOnly === true,
    sizeBytes: root.sizeBytes,
    logicalSectorBytes: logical ?? root.logicalSectorBytes ?? 512,
    physicalSectorBytes: physical ?? root.physicalSectorBytes ?? 512,
    minimumIoBytes: minimumIo ?? root.minimumIoBytes ?? 512,
    optimalIoBytes: optimalIo ?? root.optimalIoBytes ?? 0,
    partitionTable:
      tableLabel === 'gpt' || tableLabel === 'dos' ? tableLabel : tableLabel === null ? 'none' : 'unknown',
    isSystemDisk: usedAsSwap || mountpoints.some((mount) => SYSTEM_MOUNTPOINTS.has(mount)),
    mountpoints,
  };

  const spaceInput: SpaceInput = {
    diskSizeBytes: root.sizeBytes,
    table,
    partitions: partitions.map((part) => ({ startBytes: part.startBytes, sizeBytes: part.sizeBytes })),
    // Without a table the disk is free only if we know nothing is on it: not mounted, no holder, and a
    // signature probe that answered "nothing" (a failed probe must never make a used disk look empty).
    wholeDiskInUse:
      stack.filesystem !== null ||
      root.mountpoints.length > 0 ||
      root.children.some((child) => child.type !== 'part') ||
      (root.filesystemType === null && blkidByPath.has(root.path) && blkidByPath.get(root.path) === null),
  };

  return {
    disk,
    partitions,
    stack,
    encryption: {
      found,
      veracryptDetectable: false,
      note: 'VeraCrypt and TrueCrypt volumes have no header signature: they are indistinguishable from random data by design, so encplan cannot tell whether a partition or file holds one.',
    },
    spaceInput,
    media: mediaOf(transport, rotational),
    otherDisks: await otherDisksOf(host, nodes),
  };
}
