import { z } from 'zod';

/** Spare area beyond the factory's: unallocated space, NVMe unallocated capacity and trimmed free space. */
export const overProvisioningSchema = z.object({
  status: z.enum(['not-applicable', 'none', 'low', 'adequate', 'generous', 'unknown']),
  diskSizeBytes: z.number().int(),
  unallocatedBytes: z.number().int(),
  unallocatedPercent: z.number(),
  /** Whether the unallocated space can act as spare: only when never written or trimmed (reference-facts §3.7). */
  unallocatedCountsAsSpare: z.enum(['yes', 'only-if-trimmed', 'no']),
  /** NVMe UNVMCAP: capacity outside every namespace. */
  nvmeUnallocatedCapacityBytes: z.number().int().nullable(),
  /** Free space in mounted filesystems whose discards reach the drive (dynamic spare). */
  trimmedFreeBytes: z.number().int(),
  /** Unallocated (when it counts) + NVMe unallocated + trimmed free space. */
  effectiveSpareBytes: z.number().int(),
  /** effectiveSpare / (disk − effectiveSpare), the ρ of WA = (1+ρ)/(2ρ). */
  spareFactor: z.number().nullable(),
  /** Worst-case write amplification under uniform random writes (Agarwal & Marrow; reference-facts §3.7). */
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
