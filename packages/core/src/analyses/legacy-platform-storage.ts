import type { PlatformEncryption, PlatformStorage } from '../domain/platform-storage.js';
import type { DriveHealth, StorageModel } from '../domain/storage-model.js';
import { apfsReadingOf, darwinLayout } from '../targets/apfs/volume-state.js';
import { windowsLayout } from '../targets/bitlocker/volume-state.js';
import { defaultTargetFor, recogniseVolume } from '../targets/registry.js';

/**
 * The legacy adapter: the deprecated `platformStorage` of macOS and Windows documents before assessment 1.4 (and
 * of hand-made plan facts, rules/storage-facts.ts) read into the one storage model. Today's probes fill the model
 * themselves (probes/darwin, probes/windows); this is the only reader of the old shape, and it places volumes with
 * the same target code the probes use (targets/apfs, targets/bitlocker volume-state.ts).
 */
export function modelOfLegacyPlatformStorage(storage: LegacyPlatformStorage): StorageModel {
  const partitions = storage.partitions.map((part, index) => ({
    id: part.identifier,
    number: index + 1,
    type: part.type,
    sizeBytes: part.sizeBytes,
    encryption: null,
    label: part.label,
    mountpoint: part.mountPoint,
  }));
  const encryptionUnknown = encryptionUnknownOf(storage);
  const layout =
    storage.platform === 'win32'
      ? windowsLayout(
          storage.disk.identifier,
          partitions,
          storage.encryption.map((entry) => ({
            ...entry,
            method: entry.format === 'bitlocker-off' ? 'none' : entry.method,
            protectors: entry.protectors ?? null,
            locked: null,
          })),
          encryptionUnknown === null,
        )
      : darwinLayout(
          storage.disk.identifier,
          partitions,
          storage.encryption.map((entry) =>
            apfsReadingOf(
              {
                volume: entry.volume,
                name: entry.name,
                encryption: entry.format !== 'apfs-unencrypted',
                // Old documents name FileVault as a format: "apfs-encrypted" was FileVault No or not said.
                fileVault: entry.format === 'filevault' ? true : null,
                // Their protectionOn was diskutil's Locked key, negated.
                locked: entry.protectionOn === null ? null : !entry.protectionOn,
              },
              { ...entry, converting: entry.conversion === 'converting' },
            ),
          ),
        );
  return {
    platform: storage.platform,
    disk: {
      id: storage.disk.identifier,
      model: storage.disk.model,
      sizeBytes: storage.disk.sizeBytes,
      medium: storage.disk.medium,
      bus: storage.disk.bus,
      encryption: null,
      source: storage.disk.source ?? null,
      internal: storage.disk.internal ?? null,
      partitionStyle: storage.disk.partitionStyle ?? null,
      logicalSectorBytes: storage.disk.logicalSectorBytes ?? null,
      health: storage.health ?? null,
      trim: storage.trim ?? null,
    },
    partitions,
    ...layout,
    encryptionUnknown,
    reclaim: null,
    fileVault: storage.fileVault ?? null,
    cpu: storage.cpu ?? null,
  };
}

/**
 * Why the disk's encryption is unknown, or null when it was read. Documents from before
 * `platformStorage.encryptionUnknown` (assessment 1.2) count as read only with a volume entry (and, on macOS,
 * with fdesetup's answer).
 */
function encryptionUnknownOf(storage: LegacyPlatformStorage): string | null {
  if (storage.encryptionUnknown !== undefined) {
    return storage.encryptionUnknown;
  }
  const read =
    storage.platform === 'darwin'
      ? storage.encryption.length > 0 || (storage.fileVault ?? null) !== null
      : storage.encryption.some(
          (entry) => recogniseVolume(entry.format)?.target.id === defaultTargetFor('win32'),
        );
  return read
    ? null
    : `No ${storage.platform === 'darwin' ? 'diskutil or fdesetup' : 'manage-bde or Get-BitLockerVolume'} reading of this disk's volumes is in the assessment.`;
}

/** A platform encryption entry whose source may be "not measured" (plan facts with fields left out). */
type LegacyEncryption = Omit<PlatformEncryption, 'source'> & { readonly source: string };
/** Old platform facts as the adapter reads them: a whole PlatformStorage is one; left-out extras are unknown. */
export interface LegacyPlatformStorage {
  readonly platform: PlatformStorage['platform'];
  readonly disk: Pick<PlatformStorage['disk'], 'identifier' | 'model' | 'sizeBytes' | 'medium' | 'bus'> & {
    readonly source?: string | null;
    readonly internal?: boolean | null;
    readonly partitionStyle?: string | null;
    readonly logicalSectorBytes?: number | null;
  };
  readonly partitions: PlatformStorage['partitions'];
  readonly encryption: readonly LegacyEncryption[];
  readonly encryptionUnknown?: string | null | undefined;
  readonly health?: DriveHealth | null;
  readonly trim?: {
    readonly driveSupports: boolean | null;
    readonly osSends: boolean | null;
    readonly source: string | null;
  } | null;
  readonly cpu?: NonNullable<StorageModel['cpu']> | null;
  readonly fileVault?: PlatformStorage['fileVault'];
}
