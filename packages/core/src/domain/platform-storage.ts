import { z } from 'zod';
import { driveHealthSchema } from './storage-model.js';

/** Which tool a platform fact came from, so a report can say how strong it is. */
const platformSourceSchema = z.enum([
  'diskutil info',
  'diskutil list',
  'diskutil apfs list',
  'system_profiler',
  'fdesetup',
  'sysctl',
  'smartctl',
  'Get-Disk',
  'Get-PhysicalDisk',
  'Get-Partition',
  'Get-StorageReliabilityCounter',
  'Get-BitLockerVolume',
  'manage-bde',
  'fsutil',
]);

/** The assessed disk as macOS or Windows describes it. */
const platformDiskSchema = z.object({
  /** "disk0" on macOS, "\\\\.\\PhysicalDrive0" on Windows. */
  identifier: z.string(),
  model: z.string().nullable(),
  /** As the platform names the bus: "PCI", "Apple Fabric", "USB", "NVMe", "SATA", "SAS", … */
  bus: z.string().nullable(),
  internal: z.boolean().nullable(),
  medium: z.enum(['ssd', 'hdd', 'unknown']),
  sizeBytes: z.number().int().nullable(),
  logicalSectorBytes: z.number().int().nullable(),
  partitionStyle: z.string().nullable(),
  source: platformSourceSchema,
});

/** A partition of the disk (APFS physical store, EFI, NTFS, …). */
const platformPartitionSchema = z.object({
  identifier: z.string(),
  /** Partition type as the platform names it: "Apple_APFS", "EFI", "Basic", … */
  type: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  label: z.string().nullable(),
  mountPoint: z.string().nullable(),
});

/** An encrypted (or explicitly unencrypted) volume on the disk. */
const platformEncryptionSchema = z.object({
  volume: z.string(),
  name: z.string().nullable(),
  format: z.enum(['filevault', 'apfs-encrypted', 'apfs-unencrypted', 'bitlocker', 'bitlocker-off']),
  /** BitLocker: xts-aes / aes-cbc (software) or hardware (the drive's own encryption, eDrive). */
  method: z.enum(['xts-aes', 'aes-cbc', 'hardware', 'none', 'unknown']).nullable(),
  keyBits: z.number().int().nullable(),
  /** True when the drive's controller does the encryption (BitLocker hardware mode, Apple AESHardware). */
  hardware: z.boolean().nullable(),
  /** "fully-encrypted", "encryption-in-progress", … (BitLocker); "converting" for APFS CryptoMigrationOn. */
  conversion: z.string().nullable(),
  percentEncrypted: z.number().nullable(),
  protectionOn: z.boolean().nullable(),
  roles: z.array(z.string()),
  /** BitLocker key protector types ("TPM", "Numerical Password"); optional: assessment 1.3. Never their secrets. */
  protectors: z.array(z.string()).optional(),
  source: platformSourceSchema,
});

/** What the platform says about the drive's health (the storage model's shape), with the tool it came from. */
const platformHealthSchema = driveHealthSchema.extend({
  /** smartctl reads the drive's logs; the others only relay the drive's pass/fail status. */
  source: platformSourceSchema.nullable(),
});

/**
 * Everything a macOS or Windows probe set found about one disk, as assessments before 1.4 carried it
 * (`platformStorage`, deprecated). Today's probes fill the storage model directly; this schema only reads old
 * documents, through the one legacy adapter (analyses/legacy-platform-storage.ts).
 */
export const platformStorageSchema = z.object({
  platform: z.enum(['darwin', 'win32']),
  disk: platformDiskSchema,
  partitions: z.array(platformPartitionSchema),
  encryption: z.array(platformEncryptionSchema),
  /**
   * Why the disk's encryption could not be read (no tool answered: manage-bde and Get-BitLockerVolume absent
   * or refused; diskutil gave no APFS or encryption state), or null when it was read. With a reason, an empty
   * `encryption` list means unknown, never "no encryption". Optional: documents before it lack it.
   */
  encryptionUnknown: z.string().nullable().optional(),
  /** FileVault for the whole Mac (fdesetup status), null on Windows or when unknown. */
  fileVault: z.enum(['on', 'off', 'encrypting', 'decrypting']).nullable(),
  trim: z.object({
    /** The drive supports TRIM (system_profiler) or is an SSD Windows trims. */
    driveSupports: z.boolean().nullable(),
    /** The OS sends TRIM (Windows DisableDeleteNotify = 0; macOS: TRIM Yes means it is enabled). */
    osSends: z.boolean().nullable(),
    source: platformSourceSchema.nullable(),
  }),
  health: platformHealthSchema,
  cpu: z.object({
    aes: z.boolean().nullable(),
    /** Null when neither sysctl nor the disk's partitions tell (assessment 1.2: was false then). */
    appleSilicon: z.boolean().nullable(),
    source: platformSourceSchema.nullable(),
  }),
});
export type PlatformStorage = z.infer<typeof platformStorageSchema>;
export type PlatformEncryption = z.infer<typeof platformEncryptionSchema>;
