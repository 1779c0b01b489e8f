import { z } from 'zod';

/** A kernel or platform feature encplan depends on, whether it is present, and what its absence costs. */
export const capabilitySchema = z.object({
  id: z.enum(['root', 'device-mapper', 'kernel-crypto-user-api', 'loop-devices', 'ext4-encryption', 'udev']),
  present: z.boolean(),
  evidence: z.string(),
  /** What encplan cannot do without it; null when present. */
  costWhenMissing: z.string(),
});
export type Capability = z.infer<typeof capabilitySchema>;
