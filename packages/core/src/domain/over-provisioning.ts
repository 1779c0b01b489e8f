import { z } from 'zod';

/** Spare area beyond the factory's: unallocated space, NVMe unallocated capacity and trimmed free space. */
export const overProvisioningSchema = z.object({
  status: z.enum(['not-applicable', 'none', 'low', 'adequate', 'generous', 'unknown']),
  diskSizeBytes: z.number().int(),
  unallocatedBytes: z.number().int(),
  unallocatedPercent: z.number(),
  /** Whether the unallocated space can act as spare: only when never written or trimmed (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create). */
  unallocatedCountsAsSpare: z.enum(['yes', 'only-if-trimmed', 'no']),
  /** NVMe UNVMCAP: capacity outside every namespace. */
  nvmeUnallocatedCapacityBytes: z.number().int().nullable(),
  /** Free space in mounted filesystems whose discards reach the drive (dynamic spare). */
  trimmedFreeBytes: z.number().int(),
  /** Unallocated (when it counts) + NVMe unallocated + trimmed free space. */
  effectiveSpareBytes: z.number().int(),
  /** effectiveSpare / (disk − effectiveSpare), the ρ of WA = (1+ρ)/(2ρ). */
  spareFactor: z.number().nullable(),
  /** Worst-case write amplification under uniform random writes (Agarwal & Marrow; AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create). */
  worstCaseWriteAmplification: z.number().nullable(),
  /** Factory spare when known (e.g. from the drive class); null otherwise. */
  factorySpareBytes: z.number().int().nullable(),
  filesystems: z.array(
    z.object({
      mountpoint: z.string(),
      sizeBytes: z.number().int(),
      usedBytes: z.number().int(),
      usedPercent: z.number(),
      discardsReachDrive: z.boolean().nullable(),
    }),
  ),
  advice: z.array(z.string()),
});
export type OverProvisioning = z.infer<typeof overProvisioningSchema>;
