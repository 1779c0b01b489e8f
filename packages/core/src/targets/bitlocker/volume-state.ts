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
  /** xts-aes and aes-cbc are Windows' software encryption, hardware the drive's own (eDrive), none: not encrypted. */
  readonly method: 'xts-aes' | 'aes-cbc' | 'hardware' | 'none' | 'unknown' | null;
  readonly keyBits: number | null;
  readonly hardware: boolean | null;
  readonly percentEncrypted: number | null;
  /** Key protector types ("Tpm", "RecoveryPassword"). */
  readonly protectors: readonly string[];
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
 * Protection from BitLocker's two answers: "Protection On" is on. "Protection Off" on a volume whose
 * conversion is complete is suspended (Suspend-BitLocker / manage-bde -protectors -disable leave the volume
 * encrypted with its key in the clear: Microsoft Learn, "Suspend-BitLocker"); during a conversion it is off
 * (the key is protected only once encryption completes and protectors are on).
 */
function protectionOf(protectionOn: boolean | null, conversion: ConversionState): Protection {
  if (protectionOn === true) {
    return 'on';
  }
  if (protectionOn === false) {
    return conversion === 'complete' || conversion === 'used-space-only' ? 'suspended' : 'off';
  }
  return 'unknown';
}

/**
 * How the BitLocker target recognises an existing volume of its kind: its encryption state in the storage model
 * (protection on/off/suspended, conversion, method, protectors), or null for a volume BitLocker does not encrypt
 * (method None, or fully decrypted).
 */
function bitLockerVolumeState(reading: BitLockerReading): EncryptionState | null {
  const conversion = conversionOf(reading.conversion);
  if (conversion === 'decrypted' || reading.method === 'none') {
    return null;
  }
  return {
    kind: 'bitlocker',
    scope: 'block',
    cipher: reading.method === null || reading.method === 'unknown' ? null : reading.method,
    keyBits: reading.keyBits,
    hardware: reading.hardware,
    protection: protectionOf(reading.protectionOn, conversion),
    conversion,
    percentEncrypted: reading.percentEncrypted,
    keySlots: reading.protectors.map((type, index) => ({ id: String(index), type, tokens: [] })),
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
