import {
  modelOfLegacyPlatformStorage,
  type LegacyPlatformStorage,
} from '../analyses/legacy-platform-storage.js';
import type { PlatformStorage } from '../domain/platform-storage.js';
import type { DriveHealth, StorageModel } from '../domain/storage-model.js';
import type { DeepPartial, PlanFacts } from './facts.js';

/** The disk id of facts that do not name the disk: the plan shows it as a placeholder to fill in. */
export const UNKNOWN_DISK_ID = 'DISK';

/**
 * Platform facts with every left-out field unknown (null), as the plan reads them: hand-made or partial facts
 * give the same model as a whole assessment. A left-out encryption list is unknown, never "no encryption";
 * entries without a volume or format cannot be placed and are left out.
 */
function completePlatformStorage(storage: DeepPartial<PlatformStorage>): LegacyPlatformStorage {
  const disk = storage.disk ?? {};
  return {
    platform: storage.platform ?? 'win32',
    disk: {
      identifier: disk.identifier ?? UNKNOWN_DISK_ID,
      model: disk.model ?? null,
      bus: disk.bus ?? null,
      medium: disk.medium ?? 'unknown',
      sizeBytes: disk.sizeBytes ?? null,
      // Partition style and sector size are shown by the report (storageModelOf, from the whole document); the
      // plan reads neither, so they stay unknown here.
      source: disk.source ?? null,
      internal: disk.internal ?? null,
    },
    health: storage.health === undefined ? null : completeHealth(storage.health),
    trim: {
      driveSupports: storage.trim?.driveSupports ?? null,
      osSends: storage.trim?.osSends ?? null,
      source: storage.trim?.source ?? null,
    },
    cpu: {
      aes: storage.cpu?.aes ?? null,
      appleSilicon: storage.cpu?.appleSilicon ?? null,
      source: storage.cpu?.source ?? null,
    },
    fileVault: storage.fileVault ?? null,
    partitions: (storage.partitions ?? []).map((part, index) => ({
      identifier: part.identifier ?? `partition ${String(index + 1)}`,
      type: part.type ?? null,
      sizeBytes: part.sizeBytes ?? null,
      label: part.label ?? null,
      mountPoint: part.mountPoint ?? null,
    })),
    encryption: (storage.encryption ?? []).flatMap((entry) =>
      entry.volume === undefined || entry.format === undefined
        ? []
        : [
            {
              volume: entry.volume,
              name: entry.name ?? null,
              format: entry.format,
              method: entry.method ?? null,
              keyBits: entry.keyBits ?? null,
              hardware: entry.hardware ?? null,
              conversion: entry.conversion ?? null,
              percentEncrypted: entry.percentEncrypted ?? null,
              protectionOn: entry.protectionOn ?? null,
              roles: (entry.roles ?? []).filter((role): role is string => typeof role === 'string'),
              // Left out: not read (a suspended volume's protectors are unknown, never "none").
              protectors: entry.protectors?.filter((type): type is string => typeof type === 'string'),
              source: entry.source ?? 'not measured',
            },
          ],
    ),
    encryptionUnknown:
      storage.encryptionUnknown ??
      (storage.encryption === undefined ? 'The facts do not list the encryption of this disk.' : null),
  };
}

/**
 * The drive health the plan reads (the health gate: verdict, wear, source). Temperature, power-on hours and media
 * errors are shown by the report, which builds its model from the whole document (storageModelOf); here they
 * stay unknown, so the plan never depends on them.
 */
function completeHealth(health: DeepPartial<DriveHealth>): DriveHealth {
  return {
    verdict: health.verdict ?? 'unknown',
    source: health.source ?? null,
    statusOnly: health.statusOnly ?? false,
    status: health.status ?? null,
    wearPercent: health.wearPercent ?? null,
    temperatureCelsius: null,
    powerOnHours: null,
    mediaErrors: null,
    note: health.note ?? '',
  };
}

/**
 * The storage model of macOS or Windows plan facts, the only thing the platform plan reads: the assessment's own
 * `storage` section (assessment 1.4), or the one the model builder makes from the deprecated `platformStorage` of
 * an older document or hand-made facts (whole or with fields left out). Null on Linux facts, and for a `storage`
 * section without its disk or lists (unknown: no platform plan is built on a guess).
 */
export function storageModelOfFacts(facts: PlanFacts): StorageModel | null {
  if (facts.platformStorage !== undefined && facts.platformStorage !== null) {
    return modelOfLegacyPlatformStorage(completePlatformStorage(facts.platformStorage));
  }
  const storage = facts.storage;
  // The shape the rules walk (a disk with an id, the three lists); a field left out inside is read as unknown
  // (every rule reads the model's nullable fields with `?? null`), never as "no". Not a full schema parse, which
  // would read every field of the model whether a rule needs it or not.
  return storage?.platform === 'darwin' || storage?.platform === 'win32'
    ? typeof storage.disk?.id === 'string' &&
      Array.isArray(storage.partitions) &&
      Array.isArray(storage.layers) &&
      Array.isArray(storage.volumes)
      ? (storage as StorageModel)
      : null
    : null;
}
