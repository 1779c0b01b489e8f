import { type PlanOptions } from '@encplan/core';
import { type PlanFacts } from '../../src/rules/facts.js';
import { type CipherId } from '../../src/domain/cipher.js';
import { STANDARD_PROFILE_SHAPES, type StandardProfileId } from '../../src/domain/io-benchmark.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { planOptionsSchema, type ResolvedPlanOptions } from '../../src/rules/plan-options.js';

/**
 * Rule tests hand-build slices of an assessment result (`PlanFacts`): what a section leaves out is unknown.
 * These helpers spell the common slices; `facts()` merges them section by section.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function merge(base: unknown, extra: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(extra)) {
    return extra;
  }
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    merged[key] = merge(merged[key], value);
  }
  return merged;
}

/** The given slices merged, deep for objects (arrays replace). */
export function facts(...parts: PlanFacts[]): PlanFacts {
  return parts.reduce<PlanFacts>((all, part) => merge(all, part) as PlanFacts, {});
}

/** The machine section: CPU AES/VAES flags, logical cores, memory, kernel release. Left-out = unknown. */
export function machine(known: {
  aes?: boolean;
  vaes?: boolean;
  cores?: number;
  memoryBytes?: number;
  kernel?: string;
}): PlanFacts {
  const cryptoFlags = {
    ...(known.aes === undefined ? {} : { aes: known.aes }),
    ...(known.vaes === undefined ? {} : { vaes: known.vaes }),
  };
  return {
    machine: {
      cryptoFlags,
      ...(known.cores === undefined ? {} : { logicalCores: known.cores }),
      ...(known.memoryBytes === undefined ? {} : { memoryTotalBytes: known.memoryBytes }),
      ...(known.kernel === undefined ? {} : { os: { kernel: known.kernel } }),
    },
  };
}

/** A cryptsetup cipher measurement in MiB/s (one core), as the assessment's cipherBenchmark holds it. */
export function cipherMiB(cipher: CipherId, keyBits: number, encryptMiB: number, decryptMiB = encryptMiB) {
  return {
    cipher,
    keyBits,
    source: 'cryptsetup' as const,
    encryptBytesPerSecond: Math.round(encryptMiB * MIB),
    decryptBytesPerSecond: Math.round(decryptMiB * MIB),
    allCoresEncryptBytesPerSecond: null,
    allCoresDecryptBytesPerSecond: null,
    argv: ['cryptsetup', 'benchmark', '-c', cipher, '-s', String(keyBits)],
  };
}

/** The cipherBenchmark slice with these cipher measurements. */
export function ciphers(...measurements: ReturnType<typeof cipherMiB>[]): PlanFacts {
  return { cipherBenchmark: { cipherSpeed: { measurements } } };
}

/** One fio profile measurement (median bytes/s) of a standard profile and direction. */
function profileRun(profile: StandardProfileId, direction: 'read' | 'write', bytesPerSecond: number) {
  const shape = STANDARD_PROFILE_SHAPES[profile];
  return {
    profile: {
      id: `${profile}-${direction}`,
      pattern: shape.pattern,
      direction,
      blockSizeBytes: shape.blockBytes,
      queueDepth: shape.queueDepth,
      threads: 1,
    },
    summary: { medianBytesPerSecond: Math.round(bytesPerSecond) },
  };
}

/** Rates of one target per standard profile: [read, write] bytes/s, null = not measured. */
export type ProfileRates = Partial<Record<StandardProfileId, readonly [number | null, number | null]>>;

function runs(rates: ProfileRates) {
  return Object.entries(rates).flatMap(([profile, [read, write]]) => [
    ...(read === null ? [] : [profileRun(profile as StandardProfileId, 'read', read)]),
    ...(write === null ? [] : [profileRun(profile as StandardProfileId, 'write', write)]),
  ]);
}

/** The ioBenchmark slice: plain rates, and LUKS2 variants measured with (name, rates). */
export function ioBenchmark(
  plain: ProfileRates,
  luks2: readonly { variant: string; rates: ProfileRates }[] = [],
): PlanFacts {
  return {
    ioBenchmark: {
      plain: { backend: 'plain', variant: 'plain', profiles: runs(plain) },
      encrypted: luks2.map((target) => ({
        backend: 'luks2',
        variant: target.variant,
        profiles: runs(target.rates),
      })),
    },
  };
}

/** Resolved options with defaults, luks2 unless told otherwise. */
export function optionsWith(options: PlanOptions = {}): ResolvedPlanOptions {
  const parsed = planOptionsSchema.parse(options);
  return { ...parsed, targetTool: parsed.targetTool ?? 'luks2' };
}

/**
 * The facts of a wholly never-allocated disk of `sizeBytes` at `path`: no table, no signature, no holder, not
 * mounted, and the space analysis's whole-disk region (what `assess` reports for an empty disk).
 */
export function emptyDisk(sizeBytes: number, path = '/dev/sdz', logicalSectorBytes = 512): PlanFacts {
  return {
    disk: {
      path,
      sizeBytes,
      logicalSectorBytes,
      partitionTable: 'none',
      mountpoints: [],
      isSystemDisk: false,
    },
    partitions: [],
    stack: { path, type: 'disk', filesystem: null, mountpoints: [], children: [] },
    space: { regions: [{ startBytes: 0, sizeBytes, location: 'whole-disk' }] },
  };
}

/** A GPT disk with the given partitions (hand-built facts; what is left out is unknown). */
export function gptDisk(
  partitions: {
    path: string;
    sizeBytes: number;
    type: string | null;
    mountpoints?: string[];
    availableBytes?: number | null;
  }[],
  disk: { isSystemDisk?: boolean; mountpoints?: string[]; kind?: 'ssd' | 'hdd' } = {},
): PlanFacts {
  let start = MIB;
  return {
    provenance: { platform: 'linux 6.1.0' },
    media: { kind: disk.kind ?? 'ssd' },
    disk: {
      path: '/dev/nvme0n1',
      sizeBytes: 512 * GIB,
      logicalSectorBytes: 512,
      partitionTable: 'gpt',
      isSystemDisk: disk.isSystemDisk ?? false,
      mountpoints: disk.mountpoints ?? [],
    },
    partitions: partitions.map((partition, index) => {
      const startBytes = start;
      start += partition.sizeBytes;
      return {
        path: partition.path,
        number: index + 1,
        startBytes,
        sizeBytes: partition.sizeBytes,
        filesystem:
          partition.type === null
            ? null
            : { type: partition.type, availableBytes: partition.availableBytes ?? null },
        mountpoints: partition.mountpoints ?? [],
      };
    }),
    encryption: { found: [] },
  };
}
