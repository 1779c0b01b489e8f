import type { AssessmentResult } from '../contract/assessment.js';

/** The assessment's facts: everything but the plan that is made from them. */
type AssessmentFacts = Omit<AssessmentResult, 'plan'>;
import type { StackNode } from '../domain/device.js';
import { sourceOf } from '../domain/source.js';
import {
  cipherIdSchema,
  pbkdf2HashSchema,
  unknownPlanInput,
  type PlanCipherSpeed,
  type PlanInput,
  type PlanPbkdf2Speed,
} from './plan-input.js';

function walk(node: StackNode): StackNode[] {
  return [node, ...node.children.flatMap(walk)];
}

function osOf(platform: string): PlanInput['os'] {
  // provenance.platform reads "linux 6.18.44-…"; the first word is Node's process.platform.
  const name = platform.split(' ')[0];
  return name === 'darwin' || name === 'win32' ? name : 'linux';
}

function existingEncryptionOf(result: AssessmentFacts): PlanInput['existingEncryption'] {
  const found = result.encryption.found[0];
  if (found === undefined) {
    return null;
  }
  const kind =
    found.format === 'luks1' || found.format === 'luks2' || found.format === 'bitlocker'
      ? found.format
      : 'other';
  // The open mapping of a LUKS volume is the crypt node above it in the holder stack.
  const mapping = walk(result.stack).find((node) => node.type === 'crypt' && node.mapperName !== null);
  return { kind, mappingName: kind === 'luks1' || kind === 'luks2' ? (mapping?.mapperName ?? null) : null };
}

const LAYER_KINDS: Readonly<Record<string, NonNullable<PlanInput['trim']['firstBlockingLayer']>['kind']>> = {
  'dm-crypt': 'dm-crypt',
  veracrypt: 'veracrypt',
  // Plain LVs pass discards; an LVM layer that blocks is a thin pool without passdown (reference-facts §3.2).
  lvm: 'lvm-thin',
  'md-raid': 'md-raid',
  loop: 'loop',
  disk: 'device',
};

function trimOf(result: AssessmentFacts): PlanInput['trim'] {
  const { trim, discardPassthrough } = result;
  const paths = discardPassthrough.paths;
  const blockedPath = paths.find((path) => path.passesToDisk === false);
  const blockingLayer = blockedPath?.layers.find((layer) => layer.blocksHere) ?? null;
  let firstBlockingLayer: PlanInput['trim']['firstBlockingLayer'] = null;
  if (trim.status === 'blocked-by-bridge') {
    firstBlockingLayer = { kind: 'usb-bridge', name: result.disk.kernelName };
  } else if (blockingLayer !== null) {
    firstBlockingLayer = {
      kind: LAYER_KINDS[blockingLayer.kind] ?? 'other',
      name: blockingLayer.name ?? blockingLayer.path,
    };
  }
  return {
    deviceSupportsTrim: trim.deviceSupportsTrim,
    readsZeroAfterTrim: trim.readsZeroesAfterTrim,
    firstBlockingLayer,
    passthroughKnown: paths.length > 0 && paths.every((path) => path.passesToDisk !== null),
    source: trim.evidence[0] ?? sourceOf('encplan assess', 'trim'),
  };
}

/** One measurement per cipher and key size: cryptsetup's (the kernel's) one-core rate, OpenSSL's all-core rate. */
function cipherSpeedsOf(result: AssessmentFacts): PlanCipherSpeed[] {
  const measurements = result.cipherBenchmark?.cipherSpeed.measurements ?? [];
  const byKey = new Map<string, PlanCipherSpeed>();
  const ordered = [...measurements].sort(
    (a, b) => (a.source === 'cryptsetup' ? -1 : 0) - (b.source === 'cryptsetup' ? -1 : 0),
  );
  for (const measurement of ordered) {
    const cipher = cipherIdSchema.safeParse(measurement.cipher);
    if (!cipher.success) {
      continue;
    }
    const key = `${cipher.data}/${String(measurement.keyBits)}`;
    const known = byKey.get(key);
    byKey.set(key, {
      cipher: cipher.data,
      keyBits: measurement.keyBits,
      encryptBytesPerSecondOneCore: known?.encryptBytesPerSecondOneCore ?? measurement.encryptBytesPerSecond,
      decryptBytesPerSecondOneCore: known?.decryptBytesPerSecondOneCore ?? measurement.decryptBytesPerSecond,
      encryptBytesPerSecondAllCores:
        known?.encryptBytesPerSecondAllCores ?? measurement.allCoresEncryptBytesPerSecond,
      source: known?.source ?? sourceOf(measurement.source, measurement.argv.join(' ')),
    });
  }
  return [...byKey.values()];
}

/** Hash output bytes, to restate a rate measured for another key size as "per 256-bit key" (RFC 8018 §5.2). */
const HASH_OUTPUT_BYTES: Readonly<Record<string, number>> = {
  sha1: 20,
  ripemd160: 20,
  sha256: 32,
  blake2s: 32,
  sha512: 64,
  whirlpool: 64,
  streebog: 64,
};

function pbkdf2SpeedsOf(result: AssessmentFacts): PlanPbkdf2Speed[] {
  return (result.cipherBenchmark?.kdfSpeed.pbkdf2 ?? []).flatMap((row) => {
    const hash = pbkdf2HashSchema.safeParse(row.hash.replace(/-\d+$/, ''));
    const outputBytes = hash.success ? HASH_OUTPUT_BYTES[hash.data] : undefined;
    if (!hash.success || outputBytes === undefined) {
      return [];
    }
    const keyBytes = (row.derivedKeyBits ?? 256) / 8;
    const blocks = (bytes: number) => Math.ceil(bytes / outputBytes);
    return [
      {
        hash: hash.data,
        iterationsPerSecond: (row.iterationsPerSecond * blocks(keyBytes)) / blocks(32),
        source: sourceOf('cryptsetup benchmark', `PBKDF2-${row.hash}`),
      },
    ];
  });
}

/**
 * Maps an assessment onto a {@link PlanInput}: CPU, kernel crypto drivers, disk geometry, SMART health and wear,
 * TRIM and the discard walk, space, existing encryption, and (with --benchmark) cipher and KDF speeds. What the
 * assessment does not hold (I/O benchmarks, factory spare, rated TBW) stays null / empty, and the rules say so.
 */
export function planInputFromAssessment(result: AssessmentFacts): PlanInput {
  const { disk, machine, space, health, kernelCrypto } = result;
  const lastEndBytes = result.partitions.reduce<number | null>(
    (end, partition) => Math.max(end ?? 0, partition.startBytes + partition.sizeBytes),
    null,
  );
  const argon2id = result.cipherBenchmark?.kdfSpeed.argon2.find((row) => row.variant === 'argon2id') ?? null;
  const adiantum = kernelCrypto?.adiantum ?? 'unknown';
  const unknown = unknownPlanInput(osOf(result.provenance.platform));
  return {
    ...unknown,
    cpu: {
      arch: machine?.architecture ?? null,
      hasAes: machine?.cryptoFlags.aes ?? null,
      hasVaes: machine?.cryptoFlags.vaes ?? null,
      hasPmull: machine?.cryptoFlags.carrylessMultiply ?? null,
      cores: machine?.logicalCores ?? null,
      memoryBytes: machine?.memoryTotalBytes ?? null,
    },
    kernel: {
      version: machine?.os.kernel ?? null,
      xtsAesDriver: kernelCrypto?.xtsAes?.driver ?? null,
      xtsAesGeneric:
        (kernelCrypto?.xtsAesImplementation ?? null) === null
          ? null
          : kernelCrypto?.xtsAesImplementation === 'generic',
      adiantumAvailable: adiantum === 'unknown' ? null : adiantum !== 'absent',
    },
    cipherSpeeds: cipherSpeedsOf(result),
    pbkdf2Speeds: pbkdf2SpeedsOf(result),
    argon2id:
      argon2id === null
        ? null
        : {
            timeCost: argon2id.timeCost,
            memoryKiB: argon2id.memoryKibibytes,
            threads: argon2id.threads,
            targetMs: argon2id.requestedDurationMs,
            source: sourceOf('cryptsetup benchmark', 'argon2id'),
          },
    device: {
      ...unknown.device,
      path: disk.path,
      transport: disk.transport,
      // media.kind is the cross-checked answer (a loop device's rotational flag describes nothing real).
      rotational: result.media.kind === 'unknown' ? health.rotational : result.media.kind === 'hdd',
      sizeBytes: disk.sizeBytes,
      logicalSectorBytes: disk.logicalSectorBytes,
      physicalSectorBytes: disk.physicalSectorBytes,
      nvmeNamespaceManagement: space.nvme?.namespaceManagementSupported ?? null,
      hpaSupported: space.hostProtectedArea === null ? null : true,
    },
    health: {
      verdict: health.verdict,
      findings: health.findings
        .filter((finding) => finding.severity !== 'info')
        .map((finding) => finding.message),
      wearPercentUsed: health.percentageUsed,
      dataWrittenBytes: health.dataWrittenBytes,
      ratedEnduranceBytes: null,
      source: sourceOf(health.source, health.smartctlDeviceType),
    },
    trim: trimOf(result),
    space: {
      unallocatedBytes: space.unallocatedBytes,
      factorySpareBytes: null,
      partitionTable: disk.partitionTable,
      lastPartitionEndSector:
        lastEndBytes === null ? null : Math.ceil(lastEndBytes / disk.logicalSectorBytes) - 1,
    },
    existingEncryption: existingEncryptionOf(result),
  };
}
