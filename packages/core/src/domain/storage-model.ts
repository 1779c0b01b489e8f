import { z } from 'zod';
import type { StackNode } from './device.js';
import { luks2OpalSchema } from './encryption.js';
import { healthVerdictSchema } from './health.js';

/**
 * The one storage model of an assessed disk, on every platform: disk → partitions → layers → volumes. The Linux
 * inventory (lsblk, sysfs, cryptsetup), the macOS probe set (diskutil, fdesetup) and the Windows probe set
 * (Get-Disk, Get-BitLockerVolume, manage-bde) fill the same shape; readers (plan, report, fleet) need no
 * platform branch to ask "what encrypts this volume, and is it protecting now?".
 */

/** What encrypts a layer or a volume. `fscrypt` and `ecryptfs` encrypt files, everything else whole blocks. */
export const encryptionKindSchema = z.enum([
  'luks1',
  'luks2',
  /** A dm-crypt mapping whose format is unknown (no dm UUID readable, no header found). */
  'dm-crypt',
  'dm-crypt-plain',
  'tcrypt',
  'veracrypt',
  'bitlocker',
  'filevault',
  'apfs',
  'fscrypt',
  'ecryptfs',
  'opal',
]);

/** The encryption kinds as people name them (reports, the fleet's columns). */
export const ENCRYPTION_KIND_LABELS: Readonly<Record<z.infer<typeof encryptionKindSchema>, string>> = {
  luks1: 'LUKS1',
  luks2: 'LUKS2',
  'dm-crypt': 'dm-crypt',
  'dm-crypt-plain': 'plain dm-crypt',
  tcrypt: 'TrueCrypt',
  veracrypt: 'VeraCrypt',
  bitlocker: 'BitLocker',
  filevault: 'FileVault',
  apfs: 'APFS encryption',
  fscrypt: 'fscrypt',
  ecryptfs: 'eCryptfs',
  opal: 'OPAL',
};

/**
 * Whether the encryption protects the data now. `off`: the volume is (partly) encrypted but its key is stored in
 * the clear or protection was never turned on (BitLocker "Protection Off" during or after conversion);
 * `suspended`: fully encrypted, protection turned off on purpose (BitLocker Suspend-BitLocker / manage-bde
 * -protectors -disable: the volume key sits in the clear on the disk, Microsoft Learn, "Suspend-BitLocker");
 * `unknown`: no tool said.
 */
const protectionSchema = z.enum(['on', 'off', 'suspended', 'unknown']);
export type Protection = z.infer<typeof protectionSchema>;

/** Where an encryption conversion stands (BitLocker, APFS; LUKS2 online reencryption). */
const conversionStateSchema = z.enum([
  'complete',
  /** BitLocker "Used Space Only Encrypted": free space that held data before was never encrypted. */
  'used-space-only',
  'encrypting',
  'decrypting',
  'encryption-paused',
  'decryption-paused',
  'decrypted',
  'unknown',
]);
export type ConversionState = z.infer<typeof conversionStateSchema>;

/** One way in: a LUKS keyslot (with its key derivation) or a BitLocker key protector. */
const keySlotSchema = z.object({
  /** LUKS keyslot number ("0"…"31"), or the protector's position for BitLocker. */
  id: z.string(),
  /** LUKS: the keyslot's PBKDF ("argon2id", "pbkdf2"); BitLocker: the protector type ("TPM", "Numerical Password"). */
  type: z.string(),
  /** LUKS2 token types bound to this keyslot ("systemd-tpm2", "systemd-fido2"); empty for a plain passphrase. */
  tokens: z.array(z.string()),
});

/** The encryption of one layer or volume. */
const encryptionStateSchema = z.object({
  kind: encryptionKindSchema,
  /** block: the whole device is encrypted below the filesystem; file: file contents and names only. */
  scope: z.enum(['block', 'file']),
  /** As the tool names it: "aes-xts-plain64", "XTS-AES 128", "AES-XTS"; null when unknown. */
  cipher: z.string().nullable(),
  keyBits: z.number().int().nullable(),
  /** True when the drive's controller encrypts (BitLocker hardware mode, OPAL); null when unknown. */
  hardware: z.boolean().nullable(),
  protection: protectionSchema,
  conversion: conversionStateSchema.nullable(),
  percentEncrypted: z.number().nullable(),
  /** Keyslots or protectors; empty when not readable (a closed TCRYPT volume has no readable header). */
  keySlots: z.array(keySlotSchema),
  /** The tool the facts came from ("cryptsetup luksDump --dump-json-metadata", "manage-bde", "dm name"). */
  source: z.string(),
  /**
   * A LUKS2 header made with cryptsetup --hw-opal (dm-crypt on an OPAL locking range: `cipher` is dm-crypt's) or
   * --hw-opal-only (the drive alone: `cipher` null, `hardware` true). Optional: assessment 1.9.
   */
  opal: luks2OpalSchema.optional(),
});
export type EncryptionState = z.infer<typeof encryptionStateSchema>;

/** A layer between a partition (or the disk) and a filesystem. */
const layerKindSchema = z.enum([
  'dm-crypt',
  'lvm',
  'md',
  'loop',
  'usb-bridge',
  'bitlocker',
  'apfs-container',
  'veracrypt',
  'opal-locking-range',
  'device-mapper',
  'file-encryption',
]);
export type LayerKind = z.infer<typeof layerKindSchema>;

const layerSchema = z.object({
  /** Unique in the model: the device path ("/dev/mapper/cryptroot"), "C:" or "disk1". */
  id: z.string(),
  kind: layerKindSchema,
  /** dm or md name, APFS container name; null when it has none. */
  name: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** Ids of what it sits on (partitions, the disk, other layers); more than one for a multi-device VG or RAID. */
  on: z.array(z.string()),
  /**
   * Devices this layer spans that are not on the assessed disk (a volume group with physical volumes on other
   * disks, from sysfs slaves/); empty when it lives on this disk only, null when not known.
   */
  otherDisks: z.array(z.string()).nullable(),
  encryption: encryptionStateSchema.nullable(),
  /** Whether discards pass this layer; null when unknown. */
  passesDiscards: z.boolean().nullable(),
});
export type StorageLayer = z.infer<typeof layerSchema>;

const partitionEntrySchema = z.object({
  id: z.string(),
  number: z.number().int().nullable(),
  /** GPT type, Windows partition type or macOS partition type as the platform names it. */
  type: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** An encryption format found on the partition itself (a LUKS or BitLocker header); null when none. */
  encryption: encryptionStateSchema.nullable(),
  /** The partition's name or volume label (macOS, Windows); optional: assessment 1.4. */
  label: z.string().nullable().optional(),
  /** Where the platform mounts it ("C:", "/Volumes/Backup"); optional: assessment 1.4. */
  mountpoint: z.string().nullable().optional(),
});

/** A filesystem, where data lives: its encryption is what protects it, wherever in the stack that is. */
const volumeSchema = z.object({
  id: z.string(),
  /** Filesystem type ("ext4", "NTFS", "APFS"), null when unknown. */
  filesystem: z.string().nullable(),
  label: z.string().nullable(),
  mountpoints: z.array(z.string()),
  sizeBytes: z.number().int().nullable(),
  usedBytes: z.number().int().nullable(),
  /** The partition, disk or layer the filesystem sits on. */
  on: z.string(),
  /**
   * The encryption that protects its data: the nearest encrypting layer below it (or a file-level layer on it),
   * null when nothing encrypts it. `null` with `encryptionKnown: false` means unknown, never "unencrypted".
   */
  encryption: encryptionStateSchema.nullable(),
  encryptionKnown: z.boolean(),
  /** Ids of every encrypting layer below it, top first (LUKS on LVM on LUKS lists two). */
  encryptedBy: z.array(z.string()),
  /** APFS roles ("System", "Data") or BitLocker volume types ("OperatingSystem"); optional: assessment 1.4. */
  roles: z.array(z.string()).optional(),
});
export type StorageVolume = z.infer<typeof volumeSchema>;

/**
 * What the drive could get back where discards stop at a layer: the bytes the drive holds as written (NVMe
 * namespace utilisation, NUSE × LBA size) against the bytes the filesystems use. Null fields are unknown.
 */
const reclaimSchema = z.object({
  /** Bytes the drive reports as allocated (NVMe Identify Namespace NUSE × LBA size); null when not NVMe. */
  driveUsedBytes: z.number().int().nullable(),
  /** Bytes the mounted filesystems of the disk use (statfs). */
  filesystemsUsedBytes: z.number().int().nullable(),
  /** driveUsedBytes − filesystemsUsedBytes when both are known and positive: what fstrim could give back. */
  reclaimableBytes: z.number().int().nullable(),
  /** Why reclaimableBytes is null (not NVMe, NUSE = NSZE, no filesystem read); null when it is known. Assessment 1.8. */
  unknownReason: z.string().nullable().optional(),
  /** Ids of the layers where discards stop (the ones to fix first). */
  blockedAt: z.array(z.string()),
});

/** A folder encrypted file by file (eCryptfs, fscrypt) on a filesystem of the disk: not full-disk encryption. */
export interface FileEncryption {
  readonly kind: 'ecryptfs' | 'fscrypt';
  /** The encrypted folder as users see it ("/home/alice"). */
  readonly directory: string;
  /** eCryptfs: the folder holding the encrypted files ("/home/.ecryptfs/alice/.Private"); null for fscrypt. */
  readonly lowerDirectory: string | null;
  /** The mount point of the filesystem of this disk that holds it. */
  readonly volumeMount: string;
  readonly cipher: string | null;
  readonly keyBits: number | null;
  /** Whether the key is loaded (the folder readable now); null when not said. */
  readonly unlocked: boolean | null;
  readonly source: string;
}

/**
 * The drive's health as the platform's own tools relay it (diskutil / system_profiler SMART status,
 * Get-StorageReliabilityCounter, or smartctl where installed). Linux assessments carry smartctl's full reading in
 * the `health` section instead, so this is null there.
 */
export const driveHealthSchema = z.object({
  verdict: healthVerdictSchema,
  /** The tool: smartctl reads the drive's logs; the others only relay the drive's pass/fail status. */
  source: z.string().nullable(),
  /** True when only a SMART status (Verified/Failing, Healthy/Warning) is known: a weaker source than smartctl. */
  statusOnly: z.boolean(),
  status: z.string().nullable(),
  wearPercent: z.number().nullable(),
  temperatureCelsius: z.number().nullable(),
  powerOnHours: z.number().nullable(),
  mediaErrors: z.number().nullable(),
  note: z.string(),
});
export type DriveHealth = z.infer<typeof driveHealthSchema>;

/** TRIM as the platform says it (system_profiler "TRIM Support", fsutil DisableDeleteNotify). */
const driveTrimSchema = z.object({
  /** The drive supports TRIM; null when unknown. */
  driveSupports: z.boolean().nullable(),
  /** The operating system sends it to this drive; null when unknown. */
  osSends: z.boolean().nullable(),
  source: z.string().nullable(),
});

/** The assessed disk in the one model (assessment 1.3; the optional fields: 1.4). */
export const storageModelSchema = z.object({
  platform: z.enum(['linux', 'darwin', 'win32']),
  disk: z.object({
    id: z.string(),
    model: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    medium: z.enum(['ssd', 'hdd', 'unknown']),
    /** "nvme", "sata", "usb" on Linux; the platform's bus name ("PCI", "USB", "NVMe") elsewhere. */
    bus: z.string().nullable(),
    /** An encryption format on the whole disk (no partition table); null when none. */
    encryption: encryptionStateSchema.nullable(),
    /** The tool that described the disk ("diskutil info", "Get-Disk", "lsblk"); optional: assessment 1.4. */
    source: z.string().nullable().optional(),
    /** Built into the machine (false: external, USB or Thunderbolt); null when unknown. Optional: 1.4. */
    internal: z.boolean().nullable().optional(),
    /** "GPT", "MBR", "GUID_partition_scheme" as the platform names it; null when unknown. Optional: 1.4. */
    partitionStyle: z.string().nullable().optional(),
    logicalSectorBytes: z.number().int().nullable().optional(),
    /** macOS and Windows (optional: 1.4): null on Linux, where the `health` section holds smartctl's reading. */
    health: driveHealthSchema.nullable().optional(),
    /** macOS and Windows (optional: 1.4): null on Linux, where the `trim` section holds it. */
    trim: driveTrimSchema.nullable().optional(),
  }),
  partitions: z.array(partitionEntrySchema),
  layers: z.array(layerSchema),
  volumes: z.array(volumeSchema),
  /** Why the encryption of this disk could not be read; null when it was. */
  encryptionUnknown: z.string().nullable(),
  reclaim: reclaimSchema.nullable(),
  /**
   * FileVault for the whole Mac (fdesetup status): it covers the startup disk's volume group only. Null on Linux
   * and Windows or when unknown. Optional: assessment 1.4.
   */
  fileVault: z.enum(['on', 'off', 'encrypting', 'decrypting']).nullable().optional(),
  /**
   * The processor facts the platform probe set read (sysctl), for an assessment that has no `machine` section
   * (macOS, Windows): AES instructions, and Apple silicon, whose storage controller encrypts the internal SSD.
   * Null on Linux, where `machine.cryptoFlags` holds them. Optional: assessment 1.4.
   */
  cpu: z
    .object({
      aes: z.boolean().nullable(),
      appleSilicon: z.boolean().nullable(),
      source: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type StorageModel = z.infer<typeof storageModelSchema>;

/**
 * VeraCrypt's own Linux mappings: `dmsetup create veracryptN` (and veracryptN_M for each cipher of a cascade),
 * without a dm UUID, so lsblk types them `dm`, not `crypt` (VeraCrypt src/Core/Unix/Linux/CoreLinux.cpp,
 * MountVolumeNative: nativeDevName << "veracrypt" << options.SlotNumber; util-linux lsblk derives "crypt" from a
 * "CRYPT-" dm UUID prefix).
 */
export const VERACRYPT_MAPPING = /^veracrypt\d+(?:_\d+)?$/;

/** The layer kind of one node of the Linux holder stack; null for the disk and its partitions. */
export function linuxLayerKindOf(node: Pick<StackNode, 'type' | 'mapperName' | 'dmUuid'>): LayerKind | null {
  const name = node.mapperName ?? '';
  switch (node.type) {
    case 'disk':
    case 'part':
    case 'rom':
      return null;
    case 'crypt':
      return VERACRYPT_MAPPING.test(name) ? 'veracrypt' : 'dm-crypt';
    case 'lvm':
      return 'lvm';
    case 'loop':
      return 'loop';
    case 'dm':
      if (node.dmUuid?.startsWith('LVM-') === true) {
        return 'lvm';
      }
      if (node.dmUuid?.startsWith('CRYPT-TCRYPT') === true || VERACRYPT_MAPPING.test(name)) {
        return 'veracrypt';
      }
      return node.dmUuid?.startsWith('CRYPT-') === true ? 'dm-crypt' : 'device-mapper';
    case 'other':
      return 'device-mapper';
    default:
      return 'md';
  }
}
