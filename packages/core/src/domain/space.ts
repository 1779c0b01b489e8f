import { z } from 'zod';

/** Where a never-allocated region lies on the disk. */
const regionLocationSchema = z.enum(['head', 'gap', 'tail', 'whole-disk']);

/** A never-allocated region: no partition covers it, and it is not partition-table metadata. */
const unallocatedRegionSchema = z.object({
  startBytes: z.number().int(),
  sizeBytes: z.number().int(),
  location: regionLocationSchema,
});
export type UnallocatedRegion = z.infer<typeof unallocatedRegionSchema>;

/** NVMe capacity as the controller reports it (Identify Controller TNVMCAP / UNVMCAP). */
export const nvmeCapacitySchema = z.object({
  totalCapacityBytes: z.number().int().nullable(),
  unallocatedCapacityBytes: z.number().int().nullable(),
  namespaceSizeBytes: z.number().int().nullable(),
  namespaceManagementSupported: z.boolean().nullable(),
  /**
   * Bytes the namespace holds as allocated: NUSE × LBA size (NVM Express Base Specification, Identify Namespace
   * "Namespace Utilization"); what a TRIM would shrink. Optional: assessment 1.3.
   */
  namespaceUtilizationBytes: z.number().int().nullable().optional(),
});

/** An ATA host protected area (hdparm -N): sectors hidden from the OS at the end of the drive. */
const hostProtectedAreaSchema = z.object({
  visibleSectors: z.number().int(),
  nativeMaxSectors: z.number().int(),
  enabled: z.boolean(),
  hiddenBytes: z.number().int(),
});
export type HostProtectedArea = z.infer<typeof hostProtectedAreaSchema>;

/** Space on the disk that no partition uses: candidate spare area for the SSD (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create). */
export const spaceSchema = z.object({
  diskSizeBytes: z.number().int(),
  /** Sum of the regions below. Alignment slack under 1 MiB is not counted. */
  unallocatedBytes: z.number().int(),
  unallocatedPercent: z.number(),
  regions: z.array(unallocatedRegionSchema),
  /** Bytes the partition table itself reserves (GPT headers and entries at both ends). */
  partitionTableOverheadBytes: z.number().int(),
  nvme: nvmeCapacitySchema.nullable(),
  hostProtectedArea: hostProtectedAreaSchema.nullable(),
});
export type Space = z.infer<typeof spaceSchema>;

/** What the space analysis needs: the disk, its partition table and what covers it. */
export interface SpaceInput {
  readonly diskSizeBytes: number;
  /** The partition table, or null when the disk has none. */
  readonly table: {
    readonly label: 'gpt' | 'dos' | 'other';
    readonly sectorBytes: number;
    readonly firstUsableSector: number | null;
    readonly lastUsableSector: number | null;
  } | null;
  readonly partitions: readonly { readonly startBytes: number; readonly sizeBytes: number }[];
  /** True when the disk without a table carries a filesystem, LUKS or LVM directly (nothing is free). */
  readonly wholeDiskInUse: boolean;
}
