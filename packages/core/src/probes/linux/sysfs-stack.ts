import type { StackNode, StackNodeType } from '../../domain/device.js';
import type { MountEntry } from '../../parsers/proc/mountinfo.js';
import type { Host } from '../../ports.js';
import { readAttribute, readDiscardLimits, readNumber, sysBlockPath } from './sysfs.js';

/** md/level values as the kernel writes them (drivers/md/md.c). */
const MD_LEVELS: Readonly<Record<string, StackNodeType>> = {
  raid0: 'raid0',
  raid1: 'raid1',
  raid4: 'raid4',
  raid5: 'raid5',
  raid6: 'raid6',
  raid10: 'raid10',
};

/** Nesting deeper than this is a holder cycle in a broken snapshot, not a real stack. */
const MAX_DEPTH = 16;

async function typeOf(
  host: Host,
  base: string,
  dmUuid: string | null,
  backingFile: string | null,
): Promise<StackNodeType> {
  if ((await host.readText(`${base}/partition`)) !== null) {
    return 'part';
  }
  if (dmUuid !== null) {
    // The dm UUID prefix names what made the mapping: CRYPT-LUKS2-…, CRYPT-PLAIN-…, CRYPT-TCRYPT-…, LVM-….
    return dmUuid.startsWith('CRYPT-') ? 'crypt' : dmUuid.startsWith('LVM-') ? 'lvm' : 'dm';
  }
  const level = await readAttribute(host, `${base}/md/level`);
  if (level !== null) {
    return MD_LEVELS[level] ?? 'md';
  }
  if (backingFile !== null || /^loop\d+$/.test(base.slice(base.lastIndexOf('/') + 1))) {
    return 'loop';
  }
  return 'disk';
}

/**
 * Builds the holder stack of a block device from sysfs alone (no lsblk): partitions from the device's own
 * directory, upper layers from `holders/`, discard limits from `queue/discard_*` (partitions inherit their
 * disk's), mountpoints from mountinfo. Used on sysfs snapshots and when lsblk is unavailable.
 */
export async function readSysfsStack(
  host: Host,
  kernelName: string,
  mounts: readonly MountEntry[] = [],
): Promise<StackNode> {
  const visit = async (name: string, inherited: StackNode['discard'], depth: number): Promise<StackNode> => {
    const base = sysBlockPath(name);
    const [deviceNumber, sectors, readOnly, mapperName, dmUuid, backingFile, entries, holders] =
      await Promise.all([
        readAttribute(host, `${base}/dev`),
        readNumber(host, `${base}/size`),
        readNumber(host, `${base}/ro`),
        readAttribute(host, `${base}/dm/name`),
        readAttribute(host, `${base}/dm/uuid`),
        readAttribute(host, `${base}/loop/backing_file`),
        host.listDir(base),
        host.listDir(`${base}/holders`),
      ]);
    const uuid = dmUuid === '' ? null : dmUuid;
    const type = await typeOf(host, base, uuid, backingFile === '' ? null : backingFile);
    const discard = (await readDiscardLimits(host, name)) ?? inherited;
    const partitions: string[] = [];
    for (const entry of entries ?? []) {
      if (
        entry.startsWith(name) &&
        entry !== name &&
        (await host.readText(`${base}/${entry}/partition`)) !== null
      ) {
        partitions.push(entry);
      }
    }
    const children: StackNode[] = [];
    if (depth < MAX_DEPTH) {
      // Snapshots keep empty holders/ directories in git with a dot file; sysfs itself has none.
      for (const child of [...partitions, ...(holders ?? []).filter((holder) => !holder.startsWith('.'))]) {
        children.push(await visit(child, discard, depth + 1));
      }
    }
    const number = deviceNumber ?? '';
    const mapper = mapperName === null || mapperName === '' ? null : mapperName;
    return {
      kernelName: name,
      path: mapper === null ? `/dev/${name}` : `/dev/mapper/${mapper}`,
      type,
      deviceNumber: number,
      // sysfs `size` counts 512-byte sectors whatever the logical block size (Documentation/ABI/stable/sysfs-block).
      sizeBytes: (sectors ?? 0) * 512,
      mapperName: mapper,
      dmUuid: uuid,
      filesystem: null,
      mountpoints: mounts.filter((mount) => mount.deviceNumber === number).map((mount) => mount.mountPoint),
      readOnly: readOnly === 1,
      discard,
      backingFile: backingFile === null || backingFile === '' ? null : backingFile,
      children,
    };
  };
  return visit(kernelName, null, 0);
}

/**
 * The sd driver's provisioning_mode for a SCSI/USB disk (/sys/class/block/<disk>/device/scsi_disk/<h:c:t:l>/
 * provisioning_mode): "full" means no discard, "unmap"/"writesame_16"/… the command used (drivers/scsi/sd.c;
 * Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page). Null for disks that are not SCSI disks (NVMe, virtio, loop).
 */
export async function readProvisioningMode(host: Host, kernelName: string): Promise<string | null> {
  const directory = `${sysBlockPath(kernelName)}/device/scsi_disk`;
  const [entry] = (await host.listDir(directory)) ?? [];
  return entry === undefined ? null : readAttribute(host, `${directory}/${entry}/provisioning_mode`);
}
