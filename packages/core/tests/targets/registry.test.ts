import { describe, expect, it } from 'vitest';
import { assessmentResultSchema } from '../../src/contract/assessment.js';
import { resourceSchema } from '../../src/domain/cleanup.js';
import { FLAG_DEFINITIONS } from '../../src/rules/flag-definitions.js';
import {
  BENCHMARKS,
  benchmarkIdsOn,
  defaultTargetFor,
  ENCRYPTION_TARGETS,
  PLAN_TARGET_IDS,
  planTargetsOn,
  recogniseVolume,
  SELECTABLE_BENCHMARK_IDS,
  targetOf,
  targetOfLayer,
  targetOfMapping,
  teardownOfKind,
} from '../../src/targets/registry.js';
import { SHARED_TEARDOWNS } from '../../src/targets/teardown-steps.js';

describe('the target registry (packages/core/src/targets/registry.ts)', () => {
  it('is the plan option enum, in the order the JSON enum had, new targets at the end', () => {
    const targetToolSchema = FLAG_DEFINITIONS.target.schema;
    expect(targetToolSchema.options).toEqual(['luks2', 'veracrypt', 'apfs', 'bitlocker', 'luks2-opal']);
    expect(PLAN_TARGET_IDS).toEqual(targetToolSchema.options);
  });

  it('gives each platform its own full-disk encryption by default, and luks2-opal never', () => {
    expect([defaultTargetFor('linux'), defaultTargetFor('darwin'), defaultTargetFor('win32')]).toEqual([
      'luks2',
      'apfs',
      'bitlocker',
    ]);
    expect(planTargetsOn('linux')).toEqual(['luks2', 'veracrypt', 'luks2-opal']);
    expect(targetOf('luks2-opal').defaultOn).toEqual([]);
    expect(targetOf('luks2-opal').admit).toBeDefined();
  });

  it('has settings rules and commands for every plan target, and a unique id per target', () => {
    const ids = ENCRYPTION_TARGETS.map((target) => target.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of PLAN_TARGET_IDS) {
      expect(targetOf(id).settings, id).not.toBeNull();
      expect(targetOf(id).commands, id).not.toBeNull();
    }
  });

  it('names the --backend choices and the Linux wizard choices as before', () => {
    expect(SELECTABLE_BENCHMARK_IDS).toEqual(['fscrypt', 'luks2', 'veracrypt', 'apfs']);
    expect(benchmarkIdsOn('linux')).toEqual(['fscrypt', 'luks2', 'veracrypt']);
    expect(benchmarkIdsOn('darwin')).toEqual(['apfs']);
    expect(BENCHMARKS.map((benchmark) => benchmark.backendId)).toEqual([
      'fscrypt',
      'luks2',
      'veracrypt',
      'apfs',
      'bitlocker',
    ]);
  });

  it('recognises each inventory format as one target’s, encrypted or not', () => {
    const formats = ENCRYPTION_TARGETS.flatMap((target) => [
      ...target.recognition.encryptedFormats,
      ...target.recognition.unencryptedFormats,
    ]);
    expect(new Set(formats).size).toBe(formats.length);
    expect(recogniseVolume('luks1')).toMatchObject({ target: { id: 'luks2' }, encrypted: true });
    expect(recogniseVolume('tcrypt')).toMatchObject({ target: { id: 'veracrypt' }, encrypted: true });
    expect(recogniseVolume('bitlocker-off')).toMatchObject({ target: { id: 'bitlocker' }, encrypted: false });
    expect(recogniseVolume('apfs-unencrypted')).toMatchObject({ target: { id: 'apfs' }, encrypted: false });
    expect(recogniseVolume('ext4')).toBeNull();
  });

  it('gives every cleanup resource kind of a container one owning target, whose teardown cleanup uses', () => {
    const shared = SHARED_TEARDOWNS.map((teardown) => teardown.kind);
    expect([...shared].sort()).toEqual(['directory', 'file', 'loop-device', 'mount']);
    const kinds = resourceSchema.options
      .map((option) => option.shape.kind.value)
      .filter((kind) => !shared.includes(kind));
    const owned = BENCHMARKS.flatMap((benchmark) => benchmark.cleanup.map((teardown) => teardown.kind));
    expect([...owned].sort()).toEqual([...kinds].sort());
    for (const target of ENCRYPTION_TARGETS) {
      for (const teardown of target.benchmark?.cleanup ?? []) {
        expect(teardownOfKind(teardown.kind), `${target.id}: ${teardown.kind}`).toBe(teardown);
      }
    }
    expect(teardownOfKind('dm-mapping')).toBe(targetOf('luks2').benchmark?.cleanup[0]);
    expect(teardownOfKind('vhd')).toBe(targetOf('bitlocker').benchmark?.cleanup[0]);
    // Old runs' fscrypt global state is fscrypt's, and the one kind whose record is dropped once kept.
    expect(targetOf('fscrypt').benchmark?.cleanup.map((teardown) => teardown.kind)).toContain('global-path');
    expect(
      [...SHARED_TEARDOWNS, ...BENCHMARKS.flatMap((benchmark) => benchmark.cleanup)]
        .filter((teardown) => teardown.forgetWhenKept)
        .map((teardown) => teardown.kind),
    ).toEqual(['global-path']);
  });

  it('names as the facts it needs only sections an assessment has', () => {
    const sections = Object.keys(assessmentResultSchema.shape);
    for (const target of ENCRYPTION_TARGETS) {
      expect(
        target.facts.filter((fact) => !sections.includes(fact)),
        target.id,
      ).toEqual([]);
    }
    expect(targetOf('luks2-opal').facts).toContain('sed');
  });

  it('knows the stack layers and mapping names its targets open', () => {
    expect(targetOfLayer('dm-crypt')?.id).toBe('luks2');
    expect(targetOfLayer('veracrypt')?.id).toBe('veracrypt');
    expect(targetOfLayer('lvm')).toBeNull();
    expect(targetOfMapping('veracrypt3')?.id).toBe('veracrypt');
    expect(targetOfMapping('cryptdata')).toBeNull();
  });
});
