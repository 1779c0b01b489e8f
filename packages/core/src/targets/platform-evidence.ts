import { evidence, type Evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { EncryptionState, StorageModel, StorageVolume } from '../domain/storage-model.js';

/**
 * The evidence the platform plans of macOS and Windows targets cite (targets/apfs/plan.ts, targets/bitlocker/plan.ts,
 * targets/veracrypt/plan.ts, rules/platform-trim.ts): the storage model's disk and volume facts with the tool
 * that read them. Pure.
 */

/** A storage model fact's source: the platform tool that read it, or "not measured". */
export const platformSource = (origin: string | undefined | null, field: string) =>
  sourceOf(origin ?? 'not measured', field);

/** The disk's identifier, whether it is internal and its medium. */
export function diskEvidence(storage: StorageModel): Evidence[] {
  const source = storage.disk.source;
  return [
    evidence('disk.identifier', storage.disk.id, platformSource(source, 'identifier')),
    evidence('disk.internal', storage.disk.internal ?? null, platformSource(source, 'internal')),
    evidence('disk.medium', storage.disk.medium, platformSource(source, 'medium')),
  ];
}

/** An encrypted volume's state: kind, cipher, key size, hardware, protection and conversion. */
export function volumeEvidence(volume: StorageVolume, state: EncryptionState): Evidence[] {
  const source = platformSource(state.source, volume.id);
  return [
    evidence('volume', volume.id, source),
    evidence('encryption.kind', state.kind, source),
    evidence('encryption.cipher', state.cipher, source),
    evidence('encryption.keyBits', state.keyBits, source),
    evidence('encryption.hardware', state.hardware, source),
    evidence('encryption.protection', state.protection, source),
    evidence('encryption.conversion', state.conversion, source),
    evidence('encryption.percentEncrypted', state.percentEncrypted, source),
  ];
}

/** An informational finding. */
export const infoFinding = (ruleId: string, message: string, reasons: Evidence[]): Finding => ({
  ruleId,
  severity: 'info',
  message,
  evidence: reasons,
});
