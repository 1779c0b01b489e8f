import { z } from 'zod';
import { factSourceSchema } from './source.js';

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
  explanation: z.string(),
  evidence: z.array(factSourceSchema),
});
export type Sed = z.infer<typeof sedSchema>;
