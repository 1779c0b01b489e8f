import { z } from 'zod';

/** How a disk is attached. `unknown` when neither lsblk nor sysfs can tell. */
export const transportSchema = z.enum([
  'nvme',
  'sata',
  'sas',
  'usb',
  'mmc',
  'virtio',
  'loop',
  'scsi',
  'ata',
  'md',
  'dm',
  'unknown',
]);
export type Transport = z.infer<typeof transportSchema>;

/**
 * The kinds of a node in the block-device stack, as lsblk's TYPE column names them: a plain list, which a run
 * reads without building {@link stackNodeTypeSchema} (issue 28).
 */
export const STACK_NODE_TYPES = [
  'disk',
  'part',
  'crypt',
  'lvm',
  'raid0',
  'raid1',
  'raid4',
  'raid5',
  'raid6',
  'raid10',
  'md',
  'loop',
  'dm',
  'rom',
  'other',
] as const;

/** The kind of a node in the block-device stack, as lsblk's TYPE column names it. */
const stackNodeTypeSchema = z.enum(STACK_NODE_TYPES);
export type StackNodeType = z.infer<typeof stackNodeTypeSchema>;

/** A filesystem or other signature found on a block device (blkid / lsblk). */
const filesystemSchema = z.object({
  /** blkid TYPE: "ext4", "crypto_LUKS", "BitLocker", "LVM2_member", "linux_raid_member", "swap", … */
  type: z.string(),
  version: z.string().nullable(),
  label: z.string().nullable(),
  uuid: z.string().nullable(),
  /** Bytes available to unprivileged users, for mounted filesystems. */
  availableBytes: z.number().int().nullable(),
  /** Used share of a mounted filesystem, in percent. */
  usedPercent: z.number().nullable(),
});
export type Filesystem = z.infer<typeof filesystemSchema>;

/** What the kernel says about discards at one layer (sysfs queue/discard_*). 0 bytes max = no discard. */
const discardLimitsSchema = z.object({
  granularityBytes: z.number().int(),
  maxBytes: z.number().int(),
  maxHardwareBytes: z.number().int(),
  alignmentOffsetBytes: z.number().int(),
});
export type DiscardLimits = z.infer<typeof discardLimitsSchema>;

/** One layer of the block stack, from the disk up: partition, dm-crypt, LVM, md, loop. */
export interface StackNode {
  readonly kernelName: string;
  readonly path: string;
  readonly type: StackNodeType;
  readonly deviceNumber: string;
  readonly sizeBytes: number;
  /** dm name for device-mapper nodes ("cryptroot", "vg-root"), md name for arrays, else null. */
  readonly mapperName: string | null;
  /** dm UUID prefix tells what made the mapping: "CRYPT-LUKS2-…", "LVM-…", "CRYPT-PLAIN-…", "CRYPT-TCRYPT-…". */
  readonly dmUuid: string | null;
  readonly filesystem: Filesystem | null;
  readonly mountpoints: readonly string[];
  readonly readOnly: boolean;
  readonly discard: DiscardLimits | null;
  /** For loop devices: the file behind it. */
  readonly backingFile: string | null;
  readonly children: readonly StackNode[];
}
/** A stack node's own fields, its children aside: for a reader that walks the stack itself (fleet/fleet-report.ts). */
export const stackNodeFieldsSchema = z.object({
  kernelName: z.string(),
  path: z.string(),
  type: stackNodeTypeSchema,
  deviceNumber: z.string(),
  sizeBytes: z.number().int(),
  mapperName: z.string().nullable(),
  dmUuid: z.string().nullable(),
  filesystem: filesystemSchema.nullable(),
  mountpoints: z.array(z.string()),
  readOnly: z.boolean(),
  discard: discardLimitsSchema.nullable(),
  backingFile: z.string().nullable(),
});
export const stackNodeSchema: z.ZodType<StackNode> = z.lazy(() =>
  stackNodeFieldsSchema.extend({ children: z.array(stackNodeSchema) }),
);

/** How a disk or partition is named: its device node ("/dev/nvme0n1p2") and the kernel's name ("nvme0n1p2"). */
export const blockDeviceNameShape = { path: z.string(), kernelName: z.string() };

/** A partition of the assessed disk. */
export const partitionSchema = z.object({
  ...blockDeviceNameShape,
  number: z.number().int(),
  startBytes: z.number().int(),
  sizeBytes: z.number().int(),
  /** GPT partition name or null. */
  name: z.string().nullable(),
  /** GPT type GUID or MBR type byte, as lsblk reports it. */
  typeId: z.string().nullable(),
  filesystem: filesystemSchema.nullable(),
  mountpoints: z.array(z.string()),
});
export type Partition = z.infer<typeof partitionSchema>;

/** The assessed disk: identity, geometry and how it is attached. */
export const diskSchema = z.object({
  ...blockDeviceNameShape,
  deviceNumber: z.string(),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  /** "sha256:…" unless the user asked for serials (--include-serials). */
  serial: z.string().nullable(),
  wwn: z.string().nullable(),
  firmware: z.string().nullable(),
  transport: transportSchema,
  rotational: z.boolean(),
  removable: z.boolean(),
  readOnly: z.boolean(),
  sizeBytes: z.number().int(),
  logicalSectorBytes: z.number().int(),
  physicalSectorBytes: z.number().int(),
  minimumIoBytes: z.number().int(),
  optimalIoBytes: z.number().int(),
  partitionTable: z.enum(['gpt', 'dos', 'none', 'unknown']),
  /** True when / or /boot or swap lives on this disk. */
  isSystemDisk: z.boolean(),
  /** Mount points anywhere in the disk's stack. */
  mountpoints: z.array(z.string()),
});
export type Disk = z.infer<typeof diskSchema>;
