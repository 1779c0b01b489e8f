import { plistBoolean, plistNumber, plistString, type PlistDict } from '../plist/parse-plist.js';
import { parseDiskutilDocument, requiredPlistString } from './diskutil-document.js';

/** What `diskutil info -plist <disk|volume|path>` says about one disk, partition or volume. */
export interface DiskutilInfo {
  readonly deviceIdentifier: string;
  readonly parentWholeDisk: string | null;
  readonly wholeDisk: boolean | null;
  readonly mediaName: string | null;
  readonly volumeName: string | null;
  readonly mountPoint: string | null;
  /** Partition type or scheme (`Content`), e.g. "Apple_APFS", "GUID_partition_scheme". */
  readonly content: string | null;
  readonly filesystemType: string | null;
  readonly filesystemName: string | null;
  /** "PCI", "USB", "SATA", "Apple Fabric", … */
  readonly busProtocol: string | null;
  readonly internal: boolean | null;
  readonly removable: boolean | null;
  /** Absent for rotational disks in older diskutil: null, not false. */
  readonly solidState: boolean | null;
  readonly sizeBytes: number | null;
  readonly freeBytes: number | null;
  readonly blockSizeBytes: number | null;
  /** diskutil's SMART status string: "Verified", "Failing", "Not Supported", … */
  readonly smartStatus: string | null;
  readonly encryption: boolean | null;
  readonly fileVault: boolean | null;
  /** `AESHardware`: the storage controller encrypts (T2 and Apple silicon). */
  readonly aesHardware: boolean | null;
  readonly locked: boolean | null;
  readonly writable: boolean | null;
  readonly apfsContainerReference: string | null;
  readonly apfsPhysicalStores: readonly string[];
  /** `Sealed` ("Yes"/"No"/"Broken") on macOS 11+ signed system volumes. */
  readonly sealed: string | null;
}

function physicalStores(dict: PlistDict): readonly string[] {
  const value = dict['APFSPhysicalStores'];
  if (!Array.isArray(value)) {
    return [];
  }
  return (value as readonly unknown[]).flatMap((item) => {
    if (typeof item !== 'object' || item === null) {
      return [];
    }
    const store = (item as PlistDict)['APFSPhysicalStore'];
    return typeof store === 'string' ? [store] : [];
  });
}

/**
 * Parses `diskutil info -plist`. Keys diskutil leaves out (older releases, trimmed documents, HFS+ disks
 * without `SolidState`) are null. A document without `DeviceIdentifier` is not diskutil info.
 */
export function parseDiskutilInfo(text: string): DiskutilInfo {
  const dict = parseDiskutilDocument('diskutil info -plist', text);
  return {
    deviceIdentifier: requiredPlistString('diskutil info -plist', dict, 'DeviceIdentifier', 'a document'),
    parentWholeDisk: plistString(dict, 'ParentWholeDisk'),
    wholeDisk: plistBoolean(dict, 'WholeDisk'),
    mediaName: plistString(dict, 'MediaName'),
    volumeName: plistString(dict, 'VolumeName'),
    mountPoint: plistString(dict, 'MountPoint') || null,
    content: plistString(dict, 'Content'),
    filesystemType: plistString(dict, 'FilesystemType'),
    filesystemName: plistString(dict, 'FilesystemName'),
    busProtocol: plistString(dict, 'BusProtocol'),
    internal: plistBoolean(dict, 'Internal'),
    removable: plistBoolean(dict, 'RemovableMediaOrExternalDevice') ?? plistBoolean(dict, 'Removable'),
    solidState: plistBoolean(dict, 'SolidState'),
    sizeBytes: plistNumber(dict, 'TotalSize') ?? plistNumber(dict, 'Size'),
    freeBytes: plistNumber(dict, 'APFSContainerFree') ?? plistNumber(dict, 'FreeSpace'),
    blockSizeBytes: plistNumber(dict, 'DeviceBlockSize'),
    smartStatus: plistString(dict, 'SMARTStatus'),
    encryption: plistBoolean(dict, 'Encryption'),
    fileVault: plistBoolean(dict, 'FileVault'),
    aesHardware: plistBoolean(dict, 'AESHardware'),
    locked: plistBoolean(dict, 'Locked'),
    writable: plistBoolean(dict, 'WritableVolume') ?? plistBoolean(dict, 'Writable'),
    apfsContainerReference: plistString(dict, 'APFSContainerReference'),
    apfsPhysicalStores: physicalStores(dict),
    sealed: plistString(dict, 'Sealed'),
  };
}
