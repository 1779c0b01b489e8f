import type { EncryptionState, StorageModel, StorageVolume } from '../domain/storage-model.js';
import { storageModelOf, type StorageModelSource } from './storage-model.js';

/**
 * One disk's encryption as a fleet row needs it, from the storage model alone (any platform, any contract
 * version). Scalars and short lists, so a CSV column or an osquery-like table can hold each.
 */
export interface StorageSummary {
  readonly platform: StorageModel['platform'];
  readonly disk: string;
  /** The encryption kinds on the disk, each once ("luks2", "bitlocker", "veracrypt", "fscrypt"). */
  readonly kinds: readonly string[];
  /**
   * The worst protection over the volumes that hold data: off, suspended, none (a data volume no layer
   * encrypts), unknown, on; no-volumes when the disk holds no filesystem.
   */
  readonly protection: 'off' | 'suspended' | 'none' | 'unknown' | 'on' | 'no-volumes';
  /** A conversion running or paused on some volume (encrypting, decrypting, …), null when none. */
  readonly conversion: EncryptionState['conversion'];
  /** The lowest percentage encrypted of a converting volume; null when none converts or it is unknown. */
  readonly percentEncrypted: number | null;
  /** Data volumes nothing encrypts. */
  readonly unencryptedVolumes: readonly string[];
  /**
   * True when some data volume is encrypted only folder by folder (eCryptfs, fscrypt: file names and contents of
   * those folders; the rest of the filesystem, swap and metadata stay readable): not full-disk encryption.
   */
  readonly fileLevelOnly: boolean;
  /** Volumes encrypted by more than one layer (LUKS on LVM on LUKS). */
  readonly nestedEncryption: readonly string[];
  /** "0:argon2id 1:pbkdf2+systemd-tpm2" per encrypting layer, ";"-separated; protectors for BitLocker. */
  readonly keySlots: string;
  /**
   * True when a LUKS volume has no keyslot 0 or its slot 0 is bound to a token (the passphrase lives in another
   * slot: tools that escrow "slot 0" miss it); false when every LUKS slot 0 is a plain keyslot; null without LUKS.
   */
  readonly passphraseOutsideSlot0: boolean | null;
  /** True when a layer spans another disk (a multi-disk volume group or array); null when not known. */
  readonly spansDisks: boolean | null;
  /** What fstrim could give back where discards stop at a layer; null when unknown or nothing stops them. */
  readonly reclaimableBytes: number | null;
  readonly encryptionUnknown: string | null;
}

/** Mount points that hold boot files, never encrypted by design (EFI system partition, /boot). */
const BOOT_MOUNTS = new Set(['/boot', '/boot/efi', '/efi']);
const PROTECTION_ORDER = ['off', 'suspended', 'none', 'unknown', 'on'] as const;

function isDataVolume(volume: StorageVolume): boolean {
  return !volume.mountpoints.some((mount) => BOOT_MOUNTS.has(mount)) && volume.filesystem !== 'swap';
}

function protectionOf(volume: StorageVolume): (typeof PROTECTION_ORDER)[number] {
  if (volume.encryption === null) {
    return volume.encryptionKnown ? 'none' : 'unknown';
  }
  return volume.encryption.protection;
}

function keySlotText(state: EncryptionState): string {
  return state.keySlots.map((slot) => `${slot.id}:${[slot.type, ...slot.tokens].join('+')}`).join(' ');
}

const LUKS = new Set(['luks1', 'luks2']);

/**
 * The fleet's view of one assessment's disk: the adapter the fleet report calls, reading only the storage
 * model (the one the document carries, or the one its sections give for documents before assessment 1.3).
 * Null when the assessment has no disk facts (it failed).
 */
export function storageSummaryOf(result: StorageModelSource): StorageSummary | null {
  const model = storageModelOf(result);
  if (model === null) {
    return null;
  }
  const states = [
    ...(model.disk.encryption === null ? [] : [model.disk.encryption]),
    ...model.partitions.flatMap((part) => (part.encryption === null ? [] : [part.encryption])),
    ...model.layers.flatMap((layer) => (layer.encryption === null ? [] : [layer.encryption])),
    ...model.volumes.flatMap((volume) => (volume.encryption === null ? [] : [volume.encryption])),
  ];
  const data = model.volumes.filter(isDataVolume);
  const protection =
    data.length === 0
      ? 'no-volumes'
      : (PROTECTION_ORDER.find((level) => data.some((volume) => protectionOf(volume) === level)) ??
        'unknown');
  const converting = states.filter(
    (state) => state.conversion !== null && !['complete', 'used-space-only'].includes(state.conversion),
  );
  const percents = converting.flatMap((state) =>
    state.percentEncrypted === null ? [] : [state.percentEncrypted],
  );
  const encrypting = [
    ...(model.disk.encryption === null ? [] : [model.disk.encryption]),
    ...model.partitions.flatMap((part) => (part.encryption === null ? [] : [part.encryption])),
    ...model.layers.flatMap((layer) => (layer.encryption === null ? [] : [layer.encryption])),
  ];
  // One header read gives the partition and its open mapping the same state: list each header once.
  const headers = [...new Set(encrypting)];
  const luks = headers.filter((state) => LUKS.has(state.kind) && state.keySlots.length > 0);
  return {
    platform: model.platform,
    disk: model.disk.id,
    kinds: [...new Set(states.map((state) => state.kind))],
    protection,
    conversion: converting[0]?.conversion ?? null,
    percentEncrypted: percents.length === 0 ? null : Math.min(...percents),
    unencryptedVolumes: data.filter((volume) => protectionOf(volume) === 'none').map((volume) => volume.id),
    fileLevelOnly: data.some(
      (volume) =>
        volume.encryption === null &&
        model.layers.some((layer) => layer.kind === 'file-encryption' && layer.on.includes(volume.id)),
    ),
    nestedEncryption: model.volumes
      .filter((volume) => volume.encryptedBy.length > 1)
      .map((volume) => volume.id),
    keySlots: headers
      .filter((state) => state.keySlots.length > 0)
      .map(keySlotText)
      .join('; '),
    passphraseOutsideSlot0:
      luks.length === 0
        ? null
        : luks.some((state) => {
            const slot0 = state.keySlots.find((slot) => slot.id === '0');
            return slot0 === undefined || slot0.tokens.length > 0;
          }),
    spansDisks: model.layers.some((layer) => (layer.otherDisks ?? []).length > 0)
      ? true
      : model.layers.some((layer) => layer.otherDisks === null)
        ? null
        : model.platform === 'linux'
          ? false
          : null,
    reclaimableBytes: model.reclaim?.reclaimableBytes ?? null,
    encryptionUnknown: model.encryptionUnknown,
  };
}
