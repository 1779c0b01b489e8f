import type { AssessmentResult } from '../contract/assessment.js';
import type { StackNode } from '../domain/device.js';
import { sourceOf } from '../domain/source.js';
import { unknownPlanInput, type PlanInput } from './plan-input.js';

function walk(node: StackNode): StackNode[] {
  return [node, ...node.children.flatMap(walk)];
}

function osOf(platform: string): PlanInput['os'] {
  // provenance.platform reads "linux 6.18.44-…"; the first word is Node's process.platform.
  const name = platform.split(' ')[0];
  return name === 'darwin' || name === 'win32' ? name : 'linux';
}

function existingEncryptionOf(result: AssessmentResult): PlanInput['existingEncryption'] {
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

/**
 * Maps what `encplan assess` knows today onto a {@link PlanInput}: CPU, kernel, disk geometry, space and
 * existing encryption. Facts the assessment does not hold yet (health, discard walk, benchmarks) stay null /
 * empty, so the rules fall back and say so; extend this mapping as those facts join the assessment.
 */
export function planInputFromAssessment(result: AssessmentResult): PlanInput {
  const { disk, machine, space } = result;
  const sysfs = sourceOf('/sys/block', 'queue/discard_max_hw_bytes');
  const lastEndBytes = result.partitions.reduce<number | null>(
    (end, partition) => Math.max(end ?? 0, partition.startBytes + partition.sizeBytes),
    null,
  );
  const hardwareDiscard = result.stack.discard?.maxHardwareBytes ?? null;
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
      xtsAesDriver: null,
      xtsAesGeneric: null,
      adiantumAvailable: null,
    },
    device: {
      path: disk.path,
      transport: disk.transport,
      // media.kind is the cross-checked answer (a loop device's rotational flag describes nothing real).
      rotational: result.media.kind === 'unknown' ? null : result.media.kind === 'hdd',
      sizeBytes: disk.sizeBytes,
      logicalSectorBytes: disk.logicalSectorBytes,
      physicalSectorBytes: disk.physicalSectorBytes,
      plainThroughput: [],
      nvmeNamespaceManagement: space.nvme?.namespaceManagementSupported ?? null,
      hpaSupported: space.hostProtectedArea === null ? null : true,
    },
    health: unknown.health,
    trim: {
      // Ansible's support_discard rule: discard_max_hw_bytes 0 = no discard at the device (reference-facts §3.5).
      deviceSupportsTrim: hardwareDiscard === null ? null : hardwareDiscard > 0,
      readsZeroAfterTrim: null,
      firstBlockingLayer: null,
      passthroughKnown: false,
      source: sysfs,
    },
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
