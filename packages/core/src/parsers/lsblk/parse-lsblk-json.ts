import { isJsonObject, parseJsonObject, unrecognized } from '../json-reader.js';

/** One device of `lsblk --json --bytes -O`, normalised across util-linux versions. */
export interface LsblkDevice {
  readonly name: string;
  readonly kernelName: string;
  readonly path: string;
  readonly deviceNumber: string;
  readonly type: string;
  readonly sizeBytes: number;
  readonly model: string | null;
  readonly vendor: string | null;
  readonly serial: string | null;
  readonly wwn: string | null;
  readonly revision: string | null;
  readonly transport: string | null;
  /** "block:scsi:virtio:pci": how the kernel reaches the device; tells virtio when `tran` is empty. */
  readonly subsystems: string | null;
  readonly rotational: boolean | null;
  readonly removable: boolean | null;
  readonly hotplug: boolean | null;
  readonly readOnly: boolean | null;
  readonly logicalSectorBytes: number | null;
  readonly physicalSectorBytes: number | null;
  readonly minimumIoBytes: number | null;
  readonly optimalIoBytes: number | null;
  readonly filesystemType: string | null;
  readonly filesystemVersion: string | null;
  readonly label: string | null;
  readonly uuid: string | null;
  readonly partitionTableType: string | null;
  readonly partitionTypeId: string | null;
  readonly partitionLabel: string | null;
  /** Start in 512-byte sectors, for partitions (util-linux ≥ 2.38 has the START column). */
  readonly startSectors: number | null;
  readonly mountpoints: readonly string[];
  readonly filesystemAvailableBytes: number | null;
  readonly filesystemSizeBytes: number | null;
  readonly filesystemUsedPercent: number | null;
  readonly children: readonly LsblkDevice[];
}

const UNIT_POWERS: Readonly<Record<string, number>> = { B: 0, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6 };

/**
 * A size column: a number (util-linux ≥ 2.33 with --bytes), a numeric string (older --bytes), or a human
 * size such as "33.3G" or "0B" when --bytes was not given (binary units, as lsblk prints them).
 */
function toBytes(value: unknown): number | null {
  const bytes = toBytesUnchecked(value);
  // lsblk prints the kernel's u64 byte counts (util-linux lsblk.c, SIZE via ul_path_read_u64): anything
  // negative, fractional-infinite or above 2^64 − 1 did not come from a real device.
  return bytes !== null && bytes >= 0 && bytes <= MAX_U64 ? bytes : null;
}

const MAX_U64 = 2 ** 64 - 1;

function toBytesUnchecked(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Math.round(value);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    return null;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return Number(text);
  }
  const match = /^(\d+(?:[.,]\d+)?)([BKMGTPE])(?:i?B)?$/i.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) {
    return null;
  }
  const power = UNIT_POWERS[match[2].toUpperCase()] ?? 0;
  return Math.round(Number(match[1].replace(',', '.')) * 1024 ** power);
}

/** A boolean column: JSON booleans (≥ 2.37) or "0"/"1" strings (older). */
function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') {
    return value;
  }
  if (value === '1' || value === 1) {
    return true;
  }
  if (value === '0' || value === 0) {
    return false;
  }
  return null;
}

function toText(value: unknown): string | null {
  if (typeof value !== 'string') {
    return typeof value === 'number' ? String(value) : null;
  }
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function toPercent(value: unknown): number | null {
  if (typeof value === 'number') {
    return value;
  }
  const text = toText(value);
  if (text === null) {
    return null;
  }
  const number = Number(text.replace('%', ''));
  return Number.isFinite(number) ? number : null;
}

function mountpointsOf(entry: Record<string, unknown>): string[] {
  // util-linux ≥ 2.37 lists every mount point (bind mounts, btrfs subvolumes); older versions one.
  const list = Array.isArray(entry.mountpoints) ? entry.mountpoints : [entry.mountpoint];
  return list.filter((item): item is string => typeof item === 'string' && item.length > 0);
}

function parseDevice(entry: unknown): LsblkDevice {
  if (!isJsonObject(entry)) {
    throw unrecognized('lsblk', 'a block device is not an object');
  }
  const name = toText(entry.name);
  const sizeBytes = toBytes(entry.size);
  if (name === null || sizeBytes === null) {
    throw unrecognized(
      'lsblk',
      `a block device has no name or no plausible size (${JSON.stringify(entry.size) ?? 'none'}; lsblk prints a byte count from 0 to 2^64 − 1)`,
    );
  }
  const kernelName = toText(entry.kname) ?? name;
  const children = Array.isArray(entry.children) ? entry.children.map(parseDevice) : [];
  return {
    name,
    kernelName,
    path: toText(entry.path) ?? `/dev/${kernelName}`,
    deviceNumber: toText(entry['maj:min']) ?? '',
    type: toText(entry.type) ?? 'unknown',
    sizeBytes,
    model: toText(entry.model),
    vendor: toText(entry.vendor),
    serial: toText(entry.serial),
    wwn: toText(entry.wwn),
    revision: toText(entry.rev),
    transport: toText(entry.tran),
    subsystems: toText(entry.subsystems),
    rotational: toBoolean(entry.rota),
    removable: toBoolean(entry.rm),
    hotplug: toBoolean(entry.hotplug),
    readOnly: toBoolean(entry.ro),
    logicalSectorBytes: toBytes(entry['log-sec']),
    physicalSectorBytes: toBytes(entry['phy-sec']),
    minimumIoBytes: toBytes(entry['min-io']),
    optimalIoBytes: toBytes(entry['opt-io']),
    filesystemType: toText(entry.fstype),
    filesystemVersion: toText(entry.fsver),
    label: toText(entry.label),
    uuid: toText(entry.uuid),
    partitionTableType: toText(entry.pttype),
    partitionTypeId: toText(entry.parttype),
    partitionLabel: toText(entry.partlabel),
    startSectors: toBytes(entry.start),
    mountpoints: mountpointsOf(entry),
    filesystemAvailableBytes: toBytes(entry.fsavail),
    filesystemSizeBytes: toBytes(entry.fssize),
    filesystemUsedPercent: toPercent(entry['fsuse%']),
    children,
  };
}

/**
 * Parses `lsblk --json --bytes -O [device]`. Accepts both the typed JSON of util-linux ≥ 2.37 and the
 * all-strings JSON of older versions. Throws TOOL_OUTPUT_UNRECOGNIZED when there is no `blockdevices` list.
 */
export function parseLsblkJson(text: string): LsblkDevice[] {
  const document = parseJsonObject('lsblk', text);
  if (!isJsonObject(document) || !Array.isArray(document.blockdevices)) {
    throw unrecognized('lsblk', 'no "blockdevices" list');
  }
  return document.blockdevices.map(parseDevice);
}
