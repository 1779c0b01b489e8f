import type {
  EncryptionState,
  StorageLayer,
  StorageModel,
  StorageVolume,
} from '../../domain/storage-model.js';

/** One APFS volume as diskutil (apfs list, or info) describes it. */
export interface ApfsReading {
  /** Its device identifier: "disk1s5". */
  readonly volume: string;
  readonly name: string | null;
  /** What encrypts it: FileVault (the boot volume group), APFS volume encryption, or nothing (null). */
  readonly kind: 'filevault' | 'apfs' | null;
  /** diskutil's CryptoMigrationOn: an encryption conversion is under way. */
  readonly converting: boolean;
  /** Not locked (diskutil "Locked: No"); null when not said. */
  readonly protectionOn: boolean | null;
  /** Apple's AESHardware: the storage controller encrypts. */
  readonly hardware: boolean | null;
  readonly roles: readonly string[];
  readonly source: string;
}

/** How the APFS target recognises an existing volume of its kind: its state in the storage model, null: unencrypted. */
function apfsVolumeState(reading: ApfsReading): EncryptionState | null {
  if (reading.kind === null) {
    return null;
  }
  return {
    kind: reading.kind,
    scope: 'block',
    // APFS encrypts with AES-XTS (Apple Platform Security guide, "Data Protection").
    cipher: 'AES-XTS',
    keyBits: null,
    hardware: reading.hardware,
    protection:
      reading.protectionOn === false
        ? 'off'
        : reading.protectionOn === true || !reading.converting
          ? 'on'
          : 'unknown',
    conversion: reading.converting ? 'encrypting' : 'complete',
    percentEncrypted: null,
    keySlots: [],
    source: reading.source,
  };
}

/**
 * The layers and volumes of a Mac disk: each APFS partition (Apple_APFS, the physical store) is an APFS container
 * layer, and each APFS volume sits on the first container (on the disk when none is listed).
 */
export function darwinLayout(
  diskId: string,
  partitions: StorageModel['partitions'],
  readings: readonly ApfsReading[],
): { layers: StorageLayer[]; volumes: StorageVolume[] } {
  const containers = partitions.filter((part) => part.type === 'Apple_APFS');
  const layers = containers.map((part): StorageLayer => ({
    id: part.id,
    kind: 'apfs-container',
    name: part.label ?? null,
    sizeBytes: part.sizeBytes,
    on: [part.id],
    otherDisks: null,
    encryption: null,
    passesDiscards: null,
  }));
  const on = containers[0]?.id ?? diskId;
  const volumes = readings.map((reading): StorageVolume => {
    const state = apfsVolumeState(reading);
    return {
      id: reading.volume,
      filesystem: 'APFS',
      label: reading.name,
      mountpoints: [],
      sizeBytes: null,
      usedBytes: null,
      on,
      encryption: state,
      encryptionKnown: true,
      encryptedBy: state === null ? [] : [on],
      roles: [...reading.roles],
    };
  });
  return { layers, volumes };
}
