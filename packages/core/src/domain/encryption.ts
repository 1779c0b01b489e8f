import { z } from 'zod';

/** An encryption format found on a device of the stack. */
const existingEncryptionSchema = z.object({
  path: z.string(),
  format: z.enum(['luks1', 'luks2', 'bitlocker', 'filevault', 'apfs-encrypted', 'tcrypt']),
  /** LUKS: cipher ("aes-xts-plain64"), key bits, sector size, PBKDF of the keyslots, flags. */
  cipher: z.string().nullable(),
  keyBits: z.number().int().nullable(),
  sectorBytes: z.number().int().nullable(),
  pbkdf: z.array(
    z.object({
      keyslot: z.string(),
      type: z.string(),
      hash: z.string().nullable(),
      iterations: z.number().int().nullable(),
      timeCost: z.number().int().nullable(),
      memoryKibibytes: z.number().int().nullable(),
      parallelThreads: z.number().int().nullable(),
    }),
  ),
  flags: z.array(z.string()),
  /**
   * LUKS2 tokens (systemd-tpm2, systemd-fido2, …) and the keyslots each unlocks (cryptsetup luksDump; LUKS2 on-disk
   * format, "tokens"). Optional: assessment 1.3; absent before and for other formats.
   */
  tokens: z.array(z.object({ id: z.string(), type: z.string(), keyslots: z.array(z.string()) })).optional(),
  /** Source of these facts, e.g. "cryptsetup luksDump --dump-json-metadata" or "blkid". */
  source: z.string(),
});
export type ExistingEncryption = z.infer<typeof existingEncryptionSchema>;

/** Existing encryption on the assessed disk, and what cannot be known. */
export const encryptionInventorySchema = z.object({
  found: z.array(existingEncryptionSchema),
  /** VeraCrypt/TrueCrypt volumes are indistinguishable from random data by design. */
  veracryptDetectable: z.literal(false),
  note: z.string(),
});
export type EncryptionInventory = z.infer<typeof encryptionInventorySchema>;
