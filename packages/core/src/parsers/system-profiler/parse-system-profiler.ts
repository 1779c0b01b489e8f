import {
  arrayAt,
  isJsonObject,
  numberAt,
  objectAt,
  objectsAt,
  parseJsonObject,
  stringAt,
  unrecognized,
  type JsonObject,
} from '../json-reader.js';
import { parsePlist, PlistData, PlistDate, type PlistValue } from '../plist/parse-plist.js';

const TOOL = 'system_profiler';

/** A partition system_profiler lists under a drive. */
export interface SystemProfilerPartition {
  readonly bsdName: string | null;
  readonly name: string | null;
  /** Partition type (`iocontent`), e.g. "Apple_APFS". */
  readonly content: string | null;
  readonly sizeBytes: number | null;
}

/** One drive of SPNVMeDataType, SPSerialATADataType or SPUSBDataType. */
export interface SystemProfilerDrive {
  readonly dataType: string;
  /** The controller or bus the drive hangs off, as system_profiler names it. */
  readonly controller: string | null;
  readonly bsdName: string | null;
  readonly model: string | null;
  readonly revision: string | null;
  readonly sizeBytes: number | null;
  /**
   * `spnvme_trim_support` / `spsata_trim_support`: "Yes" → true, "No" → false; a missing key (USB
   * drives, the rotational SATA fixture) is null — absent is not "No".
   */
  readonly trimSupported: boolean | null;
  /** NVMe is solid state by definition; SATA says "Solid State" or "Rotational". */
  readonly medium: 'ssd' | 'rotational' | null;
  readonly smartStatus: string | null;
  readonly removable: boolean | null;
  readonly linkSpeed: string | null;
  readonly linkWidth: string | null;
  readonly partitions: readonly SystemProfilerPartition[];
}

/** One mounted volume of SPStorageDataType and the physical drive under it. */
export interface SystemProfilerVolume {
  readonly bsdName: string | null;
  readonly name: string | null;
  readonly mountPoint: string | null;
  readonly fileSystem: string | null;
  readonly sizeBytes: number | null;
  readonly freeBytes: number | null;
  readonly writable: boolean | null;
  readonly deviceName: string | null;
  readonly internal: boolean | null;
  readonly medium: 'ssd' | 'rotational' | null;
  /** "Apple Fabric", "PCI-Express", "SATA", "USB", … */
  readonly protocol: string | null;
  readonly smartStatus: string | null;
}

/** What system_profiler reported, per data type. */
export interface SystemProfilerStorage {
  readonly dataTypes: readonly string[];
  readonly drives: readonly SystemProfilerDrive[];
  readonly volumes: readonly SystemProfilerVolume[];
}

function yesNo(value: string | null): boolean | null {
  if (value === null) {
    return null;
  }
  const word = value.trim().toLowerCase();
  return word === 'yes' ? true : word === 'no' ? false : null;
}

function medium(value: string | null): 'ssd' | 'rotational' | null {
  const word = value?.trim().toLowerCase() ?? null;
  if (word === 'ssd' || word === 'solid state') {
    return 'ssd';
  }
  if (word === 'rotational' || word === 'hdd') {
    return 'rotational';
  }
  return null;
}

function trimmed(value: string | null): string | null {
  return value === null ? null : value.trim();
}

function drivesOf(dataType: string, controllers: readonly unknown[]): SystemProfilerDrive[] {
  const prefix =
    dataType === 'SPNVMeDataType' ? 'spnvme_' : dataType === 'SPSerialATADataType' ? 'spsata_' : 'spusb_';
  const drives: SystemProfilerDrive[] = [];
  const visit = (items: readonly unknown[], controller: string | null, depth: number): void => {
    if (depth > 8) {
      return;
    }
    for (const item of items) {
      if (!isJsonObject(item)) {
        continue;
      }
      // A drive has a bsd_name; USB hubs and controllers nest `_items` further down.
      if (stringAt(item, 'bsd_name') !== null) {
        drives.push(driveOf(dataType, prefix, item, controller));
      } else {
        visit(arrayAt(item, '_items'), stringAt(item, '_name') ?? controller, depth + 1);
      }
    }
  };
  visit(controllers, null, 0);
  return drives;
}

function driveOf(
  dataType: string,
  prefix: string,
  item: JsonObject,
  controller: string | null,
): SystemProfilerDrive {
  const declaredMedium = medium(stringAt(item, `${prefix}medium_type`));
  return {
    dataType,
    controller,
    bsdName: stringAt(item, 'bsd_name'),
    model: trimmed(stringAt(item, 'device_model') ?? stringAt(item, '_name')),
    revision: trimmed(stringAt(item, 'device_revision')),
    sizeBytes: numberAt(item, 'size_in_bytes'),
    trimSupported: yesNo(stringAt(item, `${prefix}trim_support`)),
    medium: dataType === 'SPNVMeDataType' ? 'ssd' : declaredMedium,
    smartStatus: stringAt(item, 'smart_status'),
    removable: yesNo(stringAt(item, 'removable_media')),
    linkSpeed: stringAt(item, `${prefix}linkspeed`) ?? stringAt(item, `${prefix}link_speed`),
    linkWidth: stringAt(item, `${prefix}linkwidth`) ?? stringAt(item, `${prefix}link_width`),
    partitions: objectsAt(item, 'volumes').map((volume) => ({
      bsdName: stringAt(volume, 'bsd_name'),
      name: stringAt(volume, '_name'),
      content: stringAt(volume, 'iocontent'),
      sizeBytes: numberAt(volume, 'size_in_bytes'),
    })),
  };
}

function volumeOf(item: JsonObject): SystemProfilerVolume {
  const drive = objectAt(item, 'physical_drive');
  return {
    bsdName: stringAt(item, 'bsd_name'),
    name: stringAt(item, '_name'),
    mountPoint: stringAt(item, 'mount_point'),
    fileSystem: stringAt(item, 'file_system'),
    sizeBytes: numberAt(item, 'size_in_bytes'),
    freeBytes: numberAt(item, 'free_space_in_bytes'),
    writable: yesNo(stringAt(item, 'writable')),
    deviceName: stringAt(drive, 'device_name'),
    internal: yesNo(stringAt(drive, 'is_internal_disk')),
    medium: medium(stringAt(drive, 'medium_type')),
    protocol: stringAt(drive, 'protocol'),
    smartStatus: stringAt(drive, 'smart_status'),
  };
}

const KNOWN_DATA_TYPES = [
  'SPNVMeDataType',
  'SPSerialATADataType',
  'SPUSBDataType',
  'SPThunderboltDataType',
  'SPStorageDataType',
];

function storageOf(byType: ReadonlyMap<string, readonly unknown[]>): SystemProfilerStorage {
  const dataTypes = [...byType.keys()];
  if (!dataTypes.some((type) => KNOWN_DATA_TYPES.includes(type))) {
    throw unrecognized(TOOL, `none of the storage data types ${KNOWN_DATA_TYPES.join(', ')}`);
  }
  const drives = dataTypes
    .filter((type) => type !== 'SPStorageDataType' && type !== 'SPThunderboltDataType')
    .flatMap((type) => drivesOf(type, byType.get(type) ?? []));
  const volumes = (byType.get('SPStorageDataType') ?? []).filter(isJsonObject).map(volumeOf);
  return { dataTypes, drives, volumes };
}

/** Parses `system_profiler SPNVMeDataType SPSerialATADataType SPUSBDataType SPStorageDataType -json`. */
export function parseSystemProfilerJson(text: string): SystemProfilerStorage {
  const root = parseJsonObject(TOOL, text);
  const byType = new Map<string, readonly unknown[]>();
  for (const [key, value] of Object.entries(root)) {
    if (!Array.isArray(value)) {
      throw unrecognized(TOOL, `${key} is not an array`);
    }
    byType.set(key, value);
  }
  return storageOf(byType);
}

/** A plist value as the JSON shape system_profiler -json prints, so both formats share one reader. */
function asJson(value: PlistValue): unknown {
  if (value instanceof PlistDate) {
    return value.iso;
  }
  if (value instanceof PlistData) {
    return value.base64;
  }
  if (Array.isArray(value)) {
    return (value as readonly PlistValue[]).map(asJson);
  }
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asJson(item)]));
  }
  return value;
}

/**
 * Parses `system_profiler -xml <types>`: an array with one dict per data type (`_dataType`, `_items`),
 * what older macOS or `-detailLevel full` collections hold where no JSON exists.
 */
export function parseSystemProfilerXml(text: string): SystemProfilerStorage {
  const root = asJson(parsePlist(TOOL, text));
  if (!Array.isArray(root)) {
    throw unrecognized(TOOL, 'the XML root is not an array of data types');
  }
  const byType = new Map<string, readonly unknown[]>();
  for (const entry of root as readonly unknown[]) {
    const dataType = isJsonObject(entry) ? stringAt(entry, '_dataType') : null;
    if (dataType === null || !isJsonObject(entry)) {
      throw unrecognized(TOOL, 'a data type without _dataType');
    }
    byType.set(dataType, arrayAt(entry, '_items'));
  }
  return storageOf(byType);
}
