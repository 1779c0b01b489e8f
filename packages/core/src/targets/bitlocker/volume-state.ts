import type {
  ConversionState,
  EncryptionState,
  Protection,
  StorageLayer,
  StorageModel,
  StorageVolume,
} from '../../domain/storage-model.js';

/** One volume as manage-bde -status or Get-BitLockerVolume describes it (never a protector's secret). */
export interface BitLockerReading {
  /** The mount point: "C:". */
  readonly volume: string;
  readonly name: string | null;
  /** manage-bde's conversion status (parsed) or Get-BitLockerVolume's VolumeStatus enum name. */
  readonly conversion: string | null;
  readonly protectionOn: boolean | null;
  /** manage-bde's Lock Status or Get-BitLockerVolume's LockStatus ("Locked"); null when not read (older documents). */
  readonly locked: boolean | null;
  /** xts-aes and aes-cbc are Windows' software encryption, hardware the drive's own (eDrive), none: not encrypted. */
  readonly method: 'xts-aes' | 'aes-cbc' | 'hardware' | 'none' | 'unknown' | null;
  readonly keyBits: number | null;
  readonly hardware: boolean | null;
  readonly percentEncrypted: number | null;
  /** Key protector types ("Tpm", "RecoveryPassword"); null when not read (plan facts and documents before 1.3). */
  readonly protectors: readonly string[] | null;
  readonly source: string;
}

/**
 * BitLocker's conversion state, from manage-bde's (parsed, language-independent) wording or Get-BitLockerVolume's
 * VolumeStatus enum name (FullyDecrypted, FullyEncrypted, EncryptionInProgress, DecryptionInProgress,
 * EncryptionPaused, DecryptionPaused: Microsoft Learn, "Win32_EncryptableVolume GetConversionStatus").
 */
function conversionOf(conversion: string | null): ConversionState {
  const key = (conversion ?? '').toLowerCase().replace(/[^a-z]/g, '');
  const table: Readonly<Record<string, ConversionState>> = {
    fullyencrypted: 'complete',
    usedspaceonlyencrypted: 'used-space-only',
    encryptioninprogress: 'encrypting',
    decryptioninprogress: 'decrypting',
    encryptionpaused: 'encryption-paused',
    decryptionpaused: 'decryption-paused',
    fullydecrypted: 'decrypted',
  };
  return table[key] ?? 'unknown';
}

/**
 * Protection from BitLocker's answers (Microsoft Learn, Win32_EncryptableVolume "GetProtectionStatus" and
 * "GetLockStatus"). "Protection On" is on; so is a locked volume, whose key cannot be in the clear (manage-bde
 * prints "Protection Status: Unknown" for it: "This can be caused by the volume being in a locked state").
 * "Protection Off" on a fully converted volume is suspended when it has key protectors (DisableKeyProtectors,
 * Suspend-BitLocker: encrypted, the key in the clear until resumed; also when they were not read) and off when it
 * has none (no protector was ever added: the key was never protected); during a conversion it is off (partly
 * encrypted).
 */
function protectionOf(reading: BitLockerReading, conversion: ConversionState): Protection {
  if (reading.protectionOn === true || reading.locked === true) {
    return 'on';
  }
  if (reading.protectionOn === false) {
    const converted = conversion === 'complete' || conversion === 'used-space-only';
    return converted && reading.protectors?.length !== 0 ? 'suspended' : 'off';
  }
  return 'unknown';
}

/**
 * How the BitLocker target recognises an existing volume of its kind: its encryption state in the storage model
 * (protection on/off/suspended, conversion, method, protectors), or null for a volume BitLocker does not encrypt
 * (method None, or fully decrypted). A locked volume is BitLocker's whatever its other fields say: only a volume
 * with BitLocker metadata can be locked (Microsoft Learn, "GetLockStatus method of the Win32_EncryptableVolume
 * class"), and while it is, what is read from that metadata may be missing (manage-bde prints "Protection Status:
 * Unknown" for it), so a method or status that reads as none does not make it unencrypted.
 */
function bitLockerVolumeState(reading: BitLockerReading): EncryptionState | null {
  const conversion = conversionOf(reading.conversion);
  if ((conversion === 'decrypted' || reading.method === 'none') && reading.locked !== true) {
    return null;
  }
  return {
    kind: 'bitlocker',
    scope: 'block',
    cipher: reading.method === null || reading.method === 'unknown' ? null : reading.method,
    keyBits: reading.keyBits,
    hardware: reading.hardware,
    protection: protectionOf(reading, conversion),
    conversion,
    percentEncrypted: reading.percentEncrypted,
    keySlots: (reading.protectors ?? []).map((type, index) => ({ id: String(index), type, tokens: [] })),
    source: reading.source,
  };
}

type PartitionEntry = StorageModel['partitions'][number];

/**
 * The layers and volumes of a Windows disk: a volume for each partition with a mount point, under a BitLocker
 * layer when BitLocker encrypts it. With the partitions unknown (an empty list), every BitLocker volume read is
 * placed on the disk itself (the probe warns that they may be other disks'). `known`: a BitLocker reading was
 * had, so a volume without one is unencrypted, not unknown.
 */
export function windowsLayout(
  diskId: string,
  partitions: readonly PartitionEntry[],
  readings: readonly BitLockerReading[],
  known: boolean,
): { layers: StorageLayer[]; volumes: StorageVolume[] } {
  const layers: StorageLayer[] = [];
  const volumes: StorageVolume[] = [];
  const place = (
    mount: string,
    on: string,
    part: Pick<PartitionEntry, 'label' | 'sizeBytes'>,
    reading: BitLockerReading | undefined,
    layerName: string | null,
  ) => {
    const state = reading === undefined ? null : bitLockerVolumeState(reading);
    const layer = `${mount} BitLocker`;
    if (state !== null) {
      layers.push({
        id: layer,
        kind: 'bitlocker',
        name: layerName,
        sizeBytes: part.sizeBytes,
        on: [on],
        otherDisks: null,
        encryption: state,
        passesDiscards: null,
      });
    }
    volumes.push({
      id: mount,
      filesystem: null,
      label: part.label ?? null,
      mountpoints: [mount],
      sizeBytes: part.sizeBytes,
      usedBytes: null,
      on: state === null ? on : layer,
      encryption: state,
      encryptionKnown: known || reading !== undefined,
      encryptedBy: state === null ? [] : [layer],
    });
  };
  if (partitions.length === 0) {
    readings.forEach((reading) =>
      place(reading.volume, diskId, { label: reading.name, sizeBytes: null }, reading, null),
    );
  }
  for (const part of partitions) {
    const mount = part.mountpoint ?? null;
    if (mount !== null) {
      const reading = readings.find((candidate) => candidate.volume.toUpperCase() === mount.toUpperCase());
      place(mount, part.id, part, reading, part.label ?? null);
    }
  }
  return { layers, volumes };
}
