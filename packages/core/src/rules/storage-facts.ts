import { platformStorageModel, type LooseStorage } from '../analyses/storage-model.js';
import type { PlatformStorage } from '../domain/platform-storage.js';
import type { StorageModel } from '../domain/storage-model.js';
import type { DeepPartial, PlanFacts } from './facts.js';

/**
 * Platform facts with every left-out field unknown (null), as the plan reads them: hand-made or partial facts
 * give the same model as a whole assessment. A left-out encryption list is unknown, never "no encryption";
 * entries without a volume or format cannot be placed and are left out.
 */
function completePlatformStorage(storage: DeepPartial<PlatformStorage>): LooseStorage {
  const disk = storage.disk ?? {};
  return {
    platform: storage.platform ?? 'win32',
    disk: {
      identifier: disk.identifier ?? 'DISK',
      model: disk.model ?? null,
      bus: disk.bus ?? null,
      medium: disk.medium ?? 'unknown',
      sizeBytes: disk.sizeBytes ?? null,
    },
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
              protectors: (entry.protectors ?? []).filter((type): type is string => typeof type === 'string'),
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
 * The storage model of macOS or Windows plan facts (an assessment whole or with fields left out), made by the
 * same builder as the assessment's own `storage` section; null on Linux facts. The platform plan reads only it.
 */
export function storageModelOfFacts(facts: PlanFacts): StorageModel | null {
  return facts.platformStorage === undefined || facts.platformStorage === null
    ? null
    : platformStorageModel(completePlatformStorage(facts.platformStorage));
}
