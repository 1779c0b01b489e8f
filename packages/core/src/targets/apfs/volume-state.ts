import type {
  EncryptionState,
  Protection,
  StorageLayer,
  StorageModel,
  StorageVolume,
} from '../../domain/storage-model.js';

/**
 * APFS roles of the volumes that are Apple's own and hold no user data (diskutil apfs list roles): the sealed,
 * read-only System volume (unencrypted by design since macOS 11: Apple Platform Security guide, "Signed system
 * volume security"), Preboot, Recovery, VM (swap), Update, and Apple silicon's xART, Hardware and Baseband. Only
 * the Data volume is FileVault's ("Volume encryption with FileVault in macOS").
 */
export const APFS_SYSTEM_ROLES: ReadonlySet<string> = new Set([
  'System',
  'Preboot',
  'Recovery',
  'VM',
  'Update',
  'xART',
  'Hardware',
  'Baseband',
]);

/** One APFS volume as diskutil (apfs list, or info) describes it. */
export interface ApfsReading {
  /** Its device identifier: "disk1s5". */
  readonly volume: string;
  readonly name: string | null;
  /** What encrypts it: FileVault (a user credential wraps its key), APFS volume encryption, or nothing (null). */
  readonly kind: 'filevault' | 'apfs' | null;
  /** diskutil's FileVault key; null when diskutil does not say (macOS 10.13 has no such key). */
  readonly fileVault: boolean | null;
  /** diskutil's CryptoMigrationOn: an encryption conversion is under way. */
  readonly converting: boolean;
  /** diskutil's Locked key: the volume key is not loaded; null when not said. */
  readonly locked: boolean | null;
  /** Apple's AESHardware: the storage controller encrypts. */
  readonly hardware: boolean | null;
  readonly roles: readonly string[];
  readonly source: string;
}

/** What diskutil (apfs list or info) says of one volume's encryption. */
interface DiskutilVolumeKeys {
  readonly encryption: boolean | null;
  readonly fileVault: boolean | null;
  readonly locked: boolean | null;
}

/**
 * An APFS volume as diskutil (apfs list or info) describes it, read by the APFS target: what encrypts it (the
 * FileVault key, else the Encryption key: "Encrypted" is not FileVault), whether it is locked, converting.
 */
export function apfsReadingOf(
  volume: { readonly volume: string; readonly name: string | null } & DiskutilVolumeKeys,
  facts: Pick<ApfsReading, 'converting' | 'hardware' | 'roles' | 'source'>,
): ApfsReading {
  return {
    volume: volume.volume,
    name: volume.name,
    kind: volume.fileVault === true ? 'filevault' : volume.encryption === true ? 'apfs' : null,
    fileVault: volume.fileVault,
    locked: volume.locked,
    ...facts,
  };
}

/**
 * Whether an APFS volume's encryption protects its data now. A locked volume does (its key is not loaded). An
 * unlocked volume is still encrypted at rest: "not locked" is not "protection off". What decides is whether a user
 * credential wraps the volume key, which diskutil reports as FileVault (for an encrypted external volume too):
 * FileVault Yes is on. Encrypted with FileVault No is the internal storage of a Mac with Apple silicon or the T2
 * chip without FileVault, whose volume key is protected by the hardware UID alone, so whoever starts the Mac reads
 * the data (Apple Platform Security guide, "Volume encryption with FileVault in macOS"): off, the analogue of
 * BitLocker's clear key. diskutil without a FileVault key (macOS 10.13) leaves it unknown.
 */
function apfsProtectionOf(reading: ApfsReading): Protection {
  if (reading.locked === true || reading.fileVault === true) {
    return 'on';
  }
  return reading.fileVault === false ? 'off' : 'unknown';
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
    protection: apfsProtectionOf(reading),
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
