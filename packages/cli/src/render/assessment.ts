import type { AssessmentEnvelope, AssessmentResult, StackNode, Warning } from '@encplan/core';
import { renderCipherBenchmark } from './cipher-benchmark.js';
import { renderPlan, type PlanRenderOptions } from './plan.js';
import { renderDriveSections, renderFindings } from './drive-sections.js';
import { renderIoBenchmark } from './io-benchmark-table.js';
import { formatBytes, formatTable, yesNo } from './format.js';

function renderStack(node: StackNode, prefix = '', last = true, top = true): string[] {
  const label = [
    `${node.kernelName} (${node.type}${node.mapperName === null ? '' : ` ${node.mapperName}`}, ${formatBytes(node.sizeBytes)})`,
    node.filesystem === null ? null : `${node.filesystem.type}${node.filesystem.version === null ? '' : ` ${node.filesystem.version}`}`,
    node.mountpoints.length > 0 ? `mounted at ${node.mountpoints.join(', ')}` : null,
    node.discard === null ? null : node.discard.maxBytes === 0 ? 'no discard' : `discard ${formatBytes(node.discard.granularityBytes)} granularity`,
    node.backingFile === null ? null : `backed by ${node.backingFile}`,
  ]
    .filter((part): part is string => part !== null)
    .join(' · ');
  const line = top ? label : `${prefix}${last ? '└─ ' : '├─ '}${label}`;
  const childPrefix = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
  return [line, ...node.children.flatMap((child, index) => renderStack(child, childPrefix, index === node.children.length - 1, false))];
}

function renderWarnings(warnings: readonly Warning[]): string[] {
  if (warnings.length === 0) {
    return [];
  }
  return ['', 'Warnings (what encplan could not find out)', ...warnings.map((w) => `  ! ${w.code}${w.source === null ? '' : ` [${w.source}]`}: ${w.message}`)];
}

function renderDisk(result: AssessmentResult): string[] {
  const { disk, media } = result;
  return [
    'Drive',
    `  Model         ${[disk.vendor, disk.model].filter((x) => x !== null).join(' ') || '—'}${disk.firmware === null ? '' : ` (firmware ${disk.firmware})`}`,
    `  Serial        ${disk.serial ?? '—'}`,
    `  Transport     ${disk.transport}${disk.removable ? ', removable' : ''}${disk.readOnly ? ', read-only' : ''}`,
    `  Media         ${media.kind} — ${media.reason}`,
    `  Size          ${formatBytes(disk.sizeBytes)} (${disk.sizeBytes} bytes)`,
    `  Sectors       ${disk.logicalSectorBytes} B logical, ${disk.physicalSectorBytes} B physical, optimal I/O ${disk.optimalIoBytes === 0 ? 'not reported' : formatBytes(disk.optimalIoBytes)}`,
    `  System disk   ${yesNo(disk.isSystemDisk)}${disk.mountpoints.length > 0 ? ` (mounted: ${disk.mountpoints.join(', ')})` : ''}`,
  ];
}

function renderPartitions(result: AssessmentResult): string[] {
  if (result.partitions.length === 0) {
    return ['', `Partitions: none (partition table: ${result.disk.partitionTable})`];
  }
  const rows = result.partitions.map((part) => [
    String(part.number),
    part.path,
    formatBytes(part.startBytes),
    formatBytes(part.sizeBytes),
    part.filesystem === null ? '—' : `${part.filesystem.type}${part.filesystem.usedPercent === null ? '' : ` (${part.filesystem.usedPercent}% used)`}`,
    part.mountpoints.join(', ') || '—',
  ]);
  return ['', `Partitions (${result.disk.partitionTable})`, formatTable(['#', 'Device', 'Start', 'Size', 'Filesystem', 'Mounted at'], rows)];
}

function renderSpace(result: AssessmentResult): string[] {
  const { space } = result;
  const regions = space.regions.map((region) => `  ${region.location.padEnd(10)} ${formatBytes(region.sizeBytes).padStart(10)} at ${formatBytes(region.startBytes)}`);
  return [
    '',
    `Never-allocated space: ${formatBytes(space.unallocatedBytes)} (${space.unallocatedPercent.toFixed(2)} % of the disk)`,
    ...regions,
    '  Unpartitioned space works as extra spare area for an SSD only if it was never written or has been trimmed.',
  ];
}

function renderEncryption(result: AssessmentResult): string[] {
  const found = result.encryption.found.map(
    (item) =>
      `  ${item.path}: ${item.format}${item.cipher === null ? '' : ` ${item.cipher}`}${item.keyBits === null ? '' : ` ${item.keyBits}-bit key`}${item.sectorBytes === null ? '' : `, ${item.sectorBytes} B sectors`}${item.pbkdf.length > 0 ? `, keyslots: ${item.pbkdf.map((slot) => slot.type).join(', ')}` : ''}${item.flags.length > 0 ? `, flags: ${item.flags.join(' ')}` : ''}`,
  );
  return ['', `Existing encryption: ${found.length === 0 ? 'none found' : ''}`.trimEnd(), ...found, `  Note: ${result.encryption.note}`];
}

function renderMachine(result: AssessmentResult): string[] {
  const { machine } = result;
  if (machine === null) {
    return ['', 'Machine: unknown (see warnings)'];
  }
  const flags = machine.cryptoFlags;
  return [
    '',
    'Machine',
    `  CPU           ${machine.cpuModel} (${machine.architecture}), ${machine.physicalCores} cores / ${machine.logicalCores} threads`,
    `  AES in CPU    ${yesNo(flags.aes)}  VAES ${yesNo(flags.vaes)}  carry-less multiply ${yesNo(flags.carrylessMultiply)}  (from ${machine.cryptoFlagsSource})`,
    `  Memory        ${formatBytes(machine.memoryTotalBytes)}`,
    `  OS            ${machine.os.distro} ${machine.os.release}, kernel ${machine.os.kernel}`,
    ...result.crossChecks.filter((check) => !check.agrees).map((check) => `  Cross-check   ${check.note}`),
  ];
}

function renderCapabilities(result: AssessmentResult): string[] {
  const missing = result.capabilities.filter((capability) => !capability.present);
  if (missing.length === 0) {
    return [];
  }
  return ['', 'Missing on this machine', ...missing.map((capability) => `  - ${capability.id}: ${capability.costWhenMissing}`)];
}

/** The human report of `encplan assess`. */
export function renderAssessment(envelope: AssessmentEnvelope, options: PlanRenderOptions = { includeDestructive: false }): string {
  const result = envelope.result;
  if (result === null) {
    return `encplan: ${envelope.error?.message ?? 'no result'}`;
  }
  const header = `encplan assessment of ${result.target.path} — ${result.disk.transport}, ${formatBytes(result.disk.sizeBytes)} — status ${envelope.status}${
    result.provenance.mode === 'bundle' ? ` (from a bundle collected ${result.provenance.collectedAt})` : ''
  }`;
  return [
    header,
    ...renderFindings(result),
    ...(result.plan === null ? [] : ['', renderPlan(result.plan, options)]),
    '',
    ...renderDisk(result),
    ...renderDriveSections(result),
    ...renderPartitions(result),
    '',
    'Stack (from the disk up)',
    ...renderStack(result.stack).map((line) => `  ${line}`),
    ...renderSpace(result),
    ...renderEncryption(result),
    ...renderMachine(result),
    ...(result.cipherBenchmark === null ? [] : ['', 'Cipher and key-derivation speed', renderCipherBenchmark(result.cipherBenchmark, [])]),
    ...(result.ioBenchmark === null ? [] : ['', 'Plain versus encrypted I/O', renderIoBenchmark(result.ioBenchmark)]),
    ...renderCapabilities(result),
    ...renderWarnings(envelope.warnings),
  ].join('\n');
}
