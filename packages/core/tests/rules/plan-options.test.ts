import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { EncplanError } from '../../src/errors.js';
import { devicePathSchema, FLAG_DEFINITIONS, isDevicePath } from '../../src/rules/flag-definitions.js';
import { planOptionsSchema, resolvePlanOptions, type PlanOptions } from '../../src/rules/plan-options.js';

// Issue 28: valid plan options and flag values are checked without building a zod schema, from the same rules
// and defaults the schemas are built from. These tests hold the two to one meaning: what the check accepts and
// gives is what the schema accepts and gives, and a refusal is worded by the schema as before.

/** What resolvePlanOptions gives for `input`: the options, or the refusal's message. */
function resolved(input: unknown): { options: unknown } | { refused: string } {
  try {
    return { options: resolvePlanOptions(input as PlanOptions) };
  } catch (error) {
    expect(error).toBeInstanceOf(EncplanError);
    expect((error as EncplanError).code).toBe('INVALID_ARGUMENT');
    return { refused: (error as EncplanError).message };
  }
}

/** What planOptionsSchema gives for `input`, in the same form (the message as resolvePlanOptions words it). */
function byZod(input: unknown): { options: unknown } | { refused: string } {
  const parsed = planOptionsSchema.safeParse(input);
  return parsed.success
    ? { options: parsed.data }
    : { refused: `The plan options are not valid: ${z.prettifyError(parsed.error)}` };
}

/** Both agree on `input`, the order of the keys included (the options are printed in the plan). */
function expectSame(input: unknown): void {
  const ours = resolved(input);
  const zods = byZod(input);
  expect({ input, ours }).toEqual({ input, ours: zods });
  expect(JSON.stringify(ours)).toBe(JSON.stringify(zods));
}

const hole = (): unknown[] => {
  const sparse: unknown[] = [64];
  sparse[2] = 70;
  return sparse;
};

/** Values of every kind a field may be given, valid and not. */
const ANY_VALUE = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    false,
    0,
    -0,
    1,
    2000,
    0.5,
    64.6,
    1023,
    1024,
    131072,
    131071,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 24 - 1,
    2 ** 24,
    512,
    513,
    90,
    90.5,
    -1,
    Number.MAX_SAFE_INTEGER,
    2 ** 53,
    NaN,
    Infinity,
    -Infinity,
    '',
    '2000',
    'luks2',
    'veracrypt',
    'bitlocker',
    'apfs',
    'luks2-opal',
    'fscrypt',
    'lost-device',
    'targeted',
    'deniability',
    'desktop',
    'server',
    'write-heavy',
    'user',
    'raw',
    'cryptdata',
    'encplan',
    'data_1.x',
    '-leading',
    '.hidden',
    'x;rm -rf /',
    'a'.repeat(16),
    'a'.repeat(17),
    'a'.repeat(127),
    'a'.repeat(128),
    [],
    [64],
    [0],
    ['64'],
    {},
    { memoryBytes: null, cores: null },
    { memoryBytes: 2 * 1024 ** 3, cores: 4 },
    { memoryBytes: 2048, cores: null },
    { memoryBytes: null },
    { percent: 25 },
    { percent: 25, base: 'raw' },
    { percent: 25, base: 'flash' },
    { percent: 91, base: 'user' },
    { base: 'user' },
  ),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.oneof(fc.double(), fc.integer(), fc.constant('1'))),
);

const KEYS = [
  'targetTool',
  'threatModel',
  'workload',
  'unlockMachine',
  'unlockTimeMs',
  'passwordLength',
  'entropyBits',
  'speedOverSecurity',
  'encryptedBoot',
  'targetSpare',
  'mappingName',
  'label',
  'unknownKey',
] as const;

describe('resolvePlanOptions: the plan options without zod, as planOptionsSchema gives them', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the defaults, every option given, nulls and nested objects as the schema does', () => {
    for (const input of [
      {},
      { unknownKey: 1, unlockMachine: { memoryBytes: null, cores: 2, extra: 'x' } },
      {
        targetTool: 'veracrypt',
        threatModel: 'deniability',
        workload: 'write-heavy',
        unlockMachine: { memoryBytes: 512 * 1024 ** 2, cores: 1 },
        unlockTimeMs: 5000,
        passwordLength: 20,
        entropyBits: [64.6, 80],
        speedOverSecurity: true,
        encryptedBoot: true,
        targetSpare: { percent: 25, base: 'raw' },
        mappingName: 'data_1',
        label: 'home',
      },
      { targetTool: null, passwordLength: null, targetSpare: null },
      { targetTool: undefined, threatModel: undefined, unlockMachine: undefined },
      { targetSpare: { percent: 0 } },
      { unlockMachine: { memoryBytes: null, cores: null } },
      Object.assign(Object.create({ label: 'inherited' }) as object, { workload: 'server' }),
    ]) {
      expectSame(input);
    }
  });

  it('refuses what the schema refuses, with its words', () => {
    for (const input of [
      null,
      undefined,
      [],
      'luks2',
      { targetTool: 'fscrypt' },
      { threatModel: null },
      { unlockMachine: null },
      { unlockMachine: {} },
      { unlockMachine: { memoryBytes: 2048, cores: null } },
      { unlockMachine: { memoryBytes: null, cores: 1.5 } },
      { unlockTimeMs: 0 },
      { unlockTimeMs: 2 ** 32 },
      { passwordLength: 513 },
      { entropyBits: [] },
      { entropyBits: [0] },
      { entropyBits: [64, '80'] },
      { entropyBits: hole() },
      { speedOverSecurity: 'yes' },
      { targetSpare: {} },
      { targetSpare: { percent: 91 } },
      { targetSpare: { percent: 25, base: 'flash' } },
      { mappingName: 'x;rm -rf /' },
      { label: 'a'.repeat(17) },
      { label: 'bad label', mappingName: '-x', workload: 'lazy' },
    ]) {
      expect(resolved(input)).toHaveProperty('refused');
      expectSame(input);
    }
  });

  it('agrees with the schema over generated options', () => {
    const options = fc.dictionary(fc.constantFrom(...KEYS), ANY_VALUE, { maxKeys: KEYS.length });
    fc.assert(
      fc.property(options, (input) => {
        expectSame(input);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the schema over generated valid options', () => {
    const shape = planOptionsSchema.shape;
    const fields = Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => [
        key,
        ANY_VALUE.filter((value) => schema.safeParse(value).success),
      ]),
    );
    fc.assert(
      fc.property(fc.record(fields, { requiredKeys: [] }), (input) => {
        expect(resolved(input)).toHaveProperty('options');
        expectSame(input);
      }),
      { numRuns: 300 },
    );
  });

  it('does not run the schema for valid options, and does for a refusal (which it words)', () => {
    const safeParse = vi.spyOn(planOptionsSchema, 'safeParse');
    resolvePlanOptions({ label: 'home', entropyBits: [64], targetSpare: { percent: 10 } });
    resolvePlanOptions(resolvePlanOptions({}));
    expect(safeParse).not.toHaveBeenCalled();
    expect(() => resolvePlanOptions({ label: '' })).toThrow(/plan options are not valid/);
    expect(safeParse).toHaveBeenCalledTimes(1);
  });

  it('gives a new default object and array each time, as zod does', () => {
    const first = resolvePlanOptions({});
    first.entropyBits.push(1);
    first.unlockMachine.cores = 8;
    expect(resolvePlanOptions({})).toEqual(planOptionsSchema.parse({}));
  });
});

describe('FLAG_DEFINITIONS: each check without zod accepts what its schema accepts', () => {
  const definitions = Object.entries(FLAG_DEFINITIONS);

  it('over hand-picked and generated values', () => {
    const values = fc.oneof(ANY_VALUE, fc.constantFrom('/var/tmp', 'a\u0001b', 'x'.repeat(4096), '/'));
    fc.assert(
      fc.property(values, (value) => {
        for (const [name, definition] of definitions) {
          const parsed = definition.schema.safeParse(value);
          expect({ name, value, accepts: definition.accepts(value) }).toEqual({
            name,
            value,
            accepts: parsed.success,
          });
          if (parsed.success) {
            expect(parsed.data).toBe(value);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('lists the values of a choice as its schema does', () => {
    for (const definition of [
      FLAG_DEFINITIONS.target,
      FLAG_DEFINITIONS.threatModel,
      FLAG_DEFINITIONS.workload,
      FLAG_DEFINITIONS.targetSpareBase,
      FLAG_DEFINITIONS.failOn,
    ]) {
      expect(definition.values).toEqual(definition.schema.options);
    }
  });

  it('words a refused value with the rule’s messages', () => {
    expect(FLAG_DEFINITIONS.unlockMemory.schema.safeParse(2048).error?.issues[0]?.message).toBe(
      'at least 131072 bytes',
    );
    expect(FLAG_DEFINITIONS.unlockCores.schema.safeParse(1.5).error?.issues[0]?.message).toBe(
      FLAG_DEFINITIONS.unlockCores.accepted,
    );
    expect(FLAG_DEFINITIONS.entropyBits.schema.safeParse(0).error?.issues[0]?.message).toBe(
      FLAG_DEFINITIONS.entropyBits.accepted,
    );
    expect(FLAG_DEFINITIONS.label.schema.safeParse('-x').error?.issues[0]?.message).toBe(
      FLAG_DEFINITIONS.label.accepted,
    );
  });
});

describe('isDevicePath: devicePathSchema without zod', () => {
  it('accepts what the schema accepts', () => {
    const paths = fc.oneof(
      fc.constantFrom(
        '/dev/sda',
        '/dev/disk/by-path/pci-0000:00:1f.2-ata-1',
        '/dev/../etc/passwd',
        '/dev/sda/..',
        '/dev/..a',
        '/dev/',
        '/dev/sda;reboot',
        'sda',
        '/dev/nvme0n1p1',
      ),
      fc.string().map((tail) => `/dev/${tail}`),
      fc
        .array(fc.constantFrom('sda', '..', '.', 'by-id', 'x:y', 'a b'), { minLength: 1, maxLength: 4 })
        .map((parts) => `/dev/${parts.join('/')}`),
    );
    fc.assert(
      fc.property(paths, (path) => {
        expect({ path, accepted: isDevicePath(path) }).toEqual({
          path,
          accepted: devicePathSchema.safeParse(path).success,
        });
      }),
      { numRuns: 2000 },
    );
  });
});
