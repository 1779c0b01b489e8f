import { unrecognized } from '../json-reader.js';
import { plistDicts, plistNumber, plistString, plistStrings, type PlistDict } from '../plist/parse-plist.js';
import { parseDiskutilDocument, requiredPlistString } from './diskutil-document.js';

/** What `diskutil list -plist` says of every disk, partition and volume. */
interface DiskutilListEntry {
  readonly deviceIdentifier: string;
  /**
   * A whole disk's partition scheme ("GUID_partition_scheme", "FDisk_partition_scheme", or a container's
   * content); a partition's type ("Apple_APFS", "Apple_HFS").
   */
  readonly content: string | null;
  readonly sizeBytes: number | null;
}

/** A partition (or APFS volume) under a whole disk in `diskutil list -plist`. */
export interface DiskutilListPartition extends DiskutilListEntry {
  readonly volumeName: string | null;
  readonly mountPoint: string | null;
}

/** A whole disk in `diskutil list -plist`. */
export interface DiskutilListDisk extends DiskutilListEntry {
  readonly partitions: readonly DiskutilListPartition[];
  /** APFS volumes when the whole disk is a synthesized APFS container. */
  readonly apfsVolumes: readonly DiskutilListPartition[];
}

/** `diskutil list -plist`: the whole disks and what is on them. */
export interface DiskutilList {
  readonly wholeDisks: readonly string[];
  readonly disks: readonly DiskutilListDisk[];
}

function partitionOf(dict: PlistDict): DiskutilListPartition {
  return {
    deviceIdentifier: requiredPlistString(
      'diskutil list -plist',
      dict,
      'DeviceIdentifier',
      'a disk or partition',
    ),
    content: plistString(dict, 'Content'),
    sizeBytes: plistNumber(dict, 'Size'),
    volumeName: plistString(dict, 'VolumeName'),
    mountPoint: plistString(dict, 'MountPoint'),
  };
}

/** Parses `diskutil list -plist`. */
export function parseDiskutilList(text: string): DiskutilList {
  const root = parseDiskutilDocument('diskutil list -plist', text);
  if (!Array.isArray(root['AllDisksAndPartitions'])) {
    throw unrecognized('diskutil list -plist', 'no AllDisksAndPartitions array');
  }
  return {
    wholeDisks: plistStrings(root, 'WholeDisks'),
    disks: plistDicts(root, 'AllDisksAndPartitions').map((disk) => {
      const whole = partitionOf(disk);
      return {
        deviceIdentifier: whole.deviceIdentifier,
        content: whole.content,
        sizeBytes: whole.sizeBytes,
        partitions: plistDicts(disk, 'Partitions').map(partitionOf),
        apfsVolumes: plistDicts(disk, 'APFSVolumes').map(partitionOf),
      };
    }),
  };
}
