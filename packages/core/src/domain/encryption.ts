import { z } from 'zod';

/**
 * The OPAL part of a LUKS2 header written by cryptsetup 2.7+ `luksFormat --hw-opal` or `--hw-opal-only`
 * (cryptsetup v2.7.0, lib/luks2/luks2_segment.c json_segment_create_opal / json_segment_create_opal_crypt and
 * json_add_opal_fields; lib/luks2/luks2_json_metadata.c hdr_validate_segments makes the three opal_* fields
 * mandatory for both segment types). Assessment 1.9.
 */
export const luks2OpalSchema = z.object({
  /**
   * The data segment's type: "hw-opal-crypt" (--hw-opal: an OPAL locking range with dm-crypt on top) or "hw-opal"
   * (--hw-opal-only: the drive's encryption alone, no software cipher); null when only the header's mandatory
   * requirement "opal" said OPAL (a dump cut short before its "Data segments:").
   */
  segmentType: z.enum(['hw-opal-crypt', 'hw-opal']).nullable(),
  /** The drive's locking range (`opal_segment_number`; cryptsetup uses the partition number when it has one). */
  lockingRange: z.number().int().nullable(),
  /** The OPAL user key (`opal_key_size`, bytes in the JSON, luksDump "OPAL key: N bits"), in bits. */
  keyBits: z.number().int().nullable(),
  /** The locking range's length in bytes (`opal_segment_size`). */
  rangeBytes: z.number().int().nullable(),
});
export type Luks2Opal = z.infer<typeof luks2OpalSchema>;

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
  /**
   * LUKS2 made with cryptsetup --hw-opal / --hw-opal-only: the OPAL locking range below (or instead of) dm-crypt.
   * `cipher` and `keyBits` are then dm-crypt's alone (null for --hw-opal-only, which has no software cipher).
   * Optional: assessment 1.9; absent for a header without OPAL and in older documents.
   */
  opal: luks2OpalSchema.optional(),
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
