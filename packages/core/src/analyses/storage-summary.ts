import type { EncryptionState, StorageModel, StorageVolume } from '../domain/storage-model.js';
import { APFS_SYSTEM_ROLES } from '../targets/apfs/volume-state.js';
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
  /** The devices off this disk that its layers span (sysfs slaves/), each once; null when not known. */
  readonly otherDisks: readonly string[] | null;
  /** What fstrim could give back where discards stop at a layer; null when unknown or nothing stops them. */
  readonly reclaimableBytes: number | null;
  readonly encryptionUnknown: string | null;
}

/** Mount points that hold boot files, never encrypted by design (EFI system partition, /boot). */
const BOOT_MOUNTS = new Set(['/boot', '/boot/efi', '/efi']);
const PROTECTION_ORDER = ['off', 'suspended', 'none', 'unknown', 'on'] as const;

/** A volume that holds data: not a boot mount, not swap, no APFS system role (APFS_SYSTEM_ROLES). */
export function isDataVolume(volume: StorageVolume): boolean {
  return (
    !volume.mountpoints.some((mount) => BOOT_MOUNTS.has(mount)) &&
    volume.filesystem !== 'swap' &&
    !(volume.roles ?? []).some((role) => APFS_SYSTEM_ROLES.has(role))
  );
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
 * The same header read, seen at the device and at the mapping opened from it: every field but the kind is equal
 * (VeraCrypt's own mapping names the TCRYPT header it opened `veracrypt`).
 */
function sameState(a: EncryptionState, b: EncryptionState): boolean {
  return (
    a.source === b.source &&
    a.cipher === b.cipher &&
    a.keyBits === b.keyBits &&
    a.protection === b.protection &&
    a.conversion === b.conversion &&
    a.keySlots.length === b.keySlots.length &&
    a.keySlots.every(
      (slot, index) => slot.id === b.keySlots[index]?.id && slot.type === b.keySlots[index]?.type,
    )
  );
}

/** One encryption of the disk and where an admin meets it (the header's device, the volume, the layer). */
export interface EncryptedPlace {
  readonly id: string;
  readonly state: EncryptionState;
}

/**
 * Each block encryption of the disk once, at the place it is managed from: a header on the disk or a partition
 * (LUKS, BitLocker read on Linux), else the volume it protects (BitLocker `C:`, an APFS volume), else the layer
 * that holds it (a mapping known from its dm UUID; LUKS inside LVM at the LV that holds its header). An open mapping of a
 * listed header is that header, not a second encryption. File-level encryption (fscrypt, eCryptfs) is not
 * listed: it is no full-disk encryption (StorageSummary.fileLevelOnly).
 */
export function encryptedPlacesOf(model: StorageModel): EncryptedPlace[] {
  const places: EncryptedPlace[] = [];
  const at = new Map<string, EncryptionState>();
  const block = (state: EncryptionState | null): state is EncryptionState =>
    state !== null && state.scope === 'block';
  const add = (id: string, state: EncryptionState) => {
    places.push({ id, state });
    at.set(id, state);
  };
  if (block(model.disk.encryption)) {
    add(model.disk.id, model.disk.encryption);
  }
  for (const part of model.partitions) {
    if (block(part.encryption)) {
      add(part.id, part.encryption);
    }
  }
  const layers = new Map(model.layers.map((layer) => [layer.id, layer]));
  // A layer opened from a listed header (its `on` carries the same state) is that header.
  const opened = (id: string | undefined) => {
    const state = id === undefined ? null : (layers.get(id)?.encryption ?? null);
    return (
      state !== null &&
      (layers.get(id ?? '')?.on ?? []).some((below) => {
        const header = at.get(below);
        return header !== undefined && sameState(header, state);
      })
    );
  };
  // A header read (its key slots known) on a layer below the mapping, such as LUKS inside an LV, is managed at
  // that layer (cryptsetup luksDump /dev/VG/LV), not at the mapping opened from it.
  const headerLayerBelow = (id: string | undefined) => {
    const layer = id === undefined ? undefined : layers.get(id);
    const below = layer?.on.length === 1 ? layer.on[0] : undefined;
    return below !== undefined && layers.has(below) && (layer?.encryption?.keySlots.length ?? 0) > 0
      ? below
      : undefined;
  };
  const covered = new Set<string>();
  for (const volume of model.volumes) {
    const top = volume.encryptedBy[0];
    if (!block(volume.encryption) || opened(top)) {
      continue;
    }
    if (top !== undefined) {
      covered.add(top);
    }
    places.push({ id: headerLayerBelow(top) ?? volume.id, state: volume.encryption });
  }
  for (const layer of model.layers) {
    if (block(layer.encryption) && !covered.has(layer.id) && !opened(layer.id)) {
      add(headerLayerBelow(layer.id) ?? layer.id, layer.encryption);
    }
  }
  return places;
}

/**
 * The fleet's view of one assessment's disk: the adapter the fleet report calls, reading only the storage
 * model (the one the document carries, or the one its sections give for documents before assessment 1.3).
 * Null when the assessment has no disk facts (it failed).
 */
export function storageSummaryOf(result: StorageModelSource): StorageSummary | null {
  const model = storageModelOf(result);
  return model === null ? null : summariseStorageModel(model);
}

/**
 * The fleet's view of one storage model (storageSummaryOf, for a caller that already holds the model and,
 * perhaps, its encryptedPlacesOf).
 */
export function summariseStorageModel(
  model: StorageModel,
  places: readonly EncryptedPlace[] = encryptedPlacesOf(model),
): StorageSummary {
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
  const headers = places.map((place) => place.state);
  const luks = headers.filter((state) => LUKS.has(state.kind) && state.keySlots.length > 0);
  const spansDisks = model.layers.some((layer) => (layer.otherDisks ?? []).length > 0)
    ? true
    : model.layers.some((layer) => layer.otherDisks === null)
      ? null
      : model.platform === 'linux'
        ? false
        : null;
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
    spansDisks,
    otherDisks:
      spansDisks === null ? null : [...new Set(model.layers.flatMap((layer) => layer.otherDisks ?? []))],
    reclaimableBytes: model.reclaim?.reclaimableBytes ?? null,
    encryptionUnknown: model.encryptionUnknown,
  };
}
