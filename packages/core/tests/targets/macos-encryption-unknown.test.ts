import { describe, expect, it } from 'vitest';
import type { PlanFacts } from '../../src/rules/facts.js';
import { recommendMacosEncryption as recommendFromModel } from '../../src/targets/apfs/plan.js';
import { defaultTargetFor, isEncryptedVolumeOf } from '../../src/targets/registry.js';
import { storageModelOfFacts } from '../../src/rules/storage-facts.js';

/** The rule on the storage model the plan builds from these (deprecated-shape) platform facts. */
function recommendMacosEncryption(storage: PlanFacts['platformStorage']) {
  const model = storageModelOfFacts({ platformStorage: storage });
  if (model === null) {
    throw new Error('no storage model');
  }
  return recommendFromModel(model, null, (format) => isEncryptedVolumeOf(defaultTargetFor('darwin'), format));
}

/** An external drive whose volumes no tool read (diskutil apfs list failed) is unknown, never "unencrypted". */
describe('recommendMacosEncryption on an external drive', () => {
  const external = {
    platform: 'darwin' as const,
    disk: {
      identifier: 'disk4',
      internal: false,
      medium: 'ssd' as const,
      source: 'system_profiler' as const,
    },
    partitions: [{ identifier: 'disk4s2', type: 'Apple_APFS' }],
    encryption: [],
    fileVault: null,
  };

  it('plans nothing and says why when the encryption of its volumes was not read', () => {
    const why =
      "Neither diskutil apfs list nor diskutil info told the encryption state of disk4's volumes, so whether they are encrypted is unknown.";
    const result = recommendMacosEncryption({ ...external, encryptionUnknown: why });
    expect(result.action).toEqual({ kind: 'unknown' });
    expect(result.recommendations[0]).toMatchObject({ value: 'encryption state unknown' });
    expect(result.findings[0]?.message).toBe(
      `${why} Run diskutil apfs list, then assess again; no command assumes this drive is unencrypted.`,
    );
  });

  it('adds a new encrypted volume when its volumes were read and none is encrypted', () => {
    const result = recommendMacosEncryption({ ...external, encryptionUnknown: null });
    expect(result.action).toEqual({ kind: 'new-volume', container: 'disk4' });
  });

  it('is not "already encrypted" because FileVault is on: FileVault covers the startup volume only', () => {
    const onMac = { ...external, encryptionUnknown: null, fileVault: 'on' as const };
    expect(recommendMacosEncryption(onMac).action).toEqual({ kind: 'new-volume', container: 'disk4' });
    const unencrypted = [{ format: 'apfs-unencrypted' as const, volume: 'disk5s1' }];
    expect(recommendMacosEncryption({ ...onMac, encryption: unencrypted }).action).toEqual({
      kind: 'encrypt-volume',
      volume: 'disk5s1',
    });
    // The internal startup disk with FileVault on is.
    const startup = { ...onMac, disk: { ...external.disk, internal: true } };
    expect(recommendMacosEncryption(startup).action).toMatchObject({ kind: 'nothing' });
  });
});
