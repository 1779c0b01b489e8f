import { z } from 'zod';
import { factSourceSchema } from './source.js';

/**
 * The drive's TCG locking state as `sedutil-cli --query` reads it from the Level 0 Discovery (TCG Storage Opal SSC
 * 2.0 §3.1.1.3, Locking Feature Descriptor): read without a password and without changing the drive. Which LBA
 * ranges are set up is not in the discovery (it needs the admin password: sedutil-cli --listLockingRanges), so only
 * their number is. Every field is null with `unknownReason` when nothing was read; null alone: not reported.
 */
const opalLockingSchema = z.object({
  supported: z.boolean().nullable(),
  /** The Locking SP is activated: locking ranges are in use (by a pre-boot tool, a BIOS password or cryptsetup). */
  enabled: z.boolean().nullable(),
  /** A locking range is locked now. */
  locked: z.boolean().nullable(),
  mediaEncrypt: z.boolean().nullable(),
  mbrShadowing: z.object({
    supported: z.boolean().nullable(),
    enabled: z.boolean().nullable(),
    /** The shadow MBR is hidden (MBRDone): the real data is visible. */
    done: z.boolean().nullable(),
  }),
  /** Locking ranges the drive offers besides the global range (Single User Mode "Locking Objects" − 1). */
  rangesBesidesGlobal: z.number().int().nullable(),
  /** Why nothing was read (no sedutil-cli, the drive not listed, no answer); null when --query answered. */
  unknownReason: z.string().nullable(),
});
export type OpalLocking = z.infer<typeof opalLockingSchema>;

/** Self-encrypting drive capability, reported as a fact for the plan (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019; cryptsetup 2.7.0 release notes). */
export const sedSchema = z.object({
  status: z.enum(['opal', 'enterprise', 'pyrite-only', 'possible', 'not-sed', 'unknown']),
  opal1: z.boolean().nullable(),
  opal2: z.boolean().nullable(),
  enterprise: z.boolean().nullable(),
  /** Pyrite locks but does not encrypt (cryptsetup 2.7 release notes). */
  pyrite: z.boolean().nullable(),
  /** NVMe OACS bit 0: the transport Opal needs over NVMe. */
  nvmeSecuritySendReceive: z.boolean().nullable(),
  /** ATA IDENTIFY word 48: Trusted Computing feature set. */
  ataTrustedComputing: z.boolean().nullable(),
  ataSecurity: z
    .object({
      supported: z.boolean().nullable(),
      enabled: z.boolean().nullable(),
      locked: z.boolean().nullable(),
      frozen: z.boolean().nullable(),
    })
    .nullable(),
  /** The TCG locking state (sedutil-cli --query; assessment 1.4); absent in documents made before it. */
  opalLocking: opalLockingSchema.optional(),
  explanation: z.string(),
  evidence: z.array(factSourceSchema),
});
export type Sed = z.infer<typeof sedSchema>;
