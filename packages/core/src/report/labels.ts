import type { Evidence, Recommendation, Scalar } from '../domain/recommendation.js';
import { formatBytes, formatDurationMs, formatPercent, formatRate } from '../domain/units.js';

/** What a value is measured in, so it is formatted the same way in every view. */
export type ValueUnit = 'bytes' | 'bytes-per-second' | 'percent' | 'ms' | 'kibibytes' | 'count' | 'text';

/** A label written by a person for a typed field, and the unit of its value. */
export interface FieldLabel {
  readonly label: string;
  readonly unit: ValueUnit;
}

/** The word every view writes where a value is unknown (never a blank cell). */
export const UNKNOWN = 'unknown';

/** Formats a scalar of a known unit: booleans as yes/no, null as "unknown", numbers by their unit. */
export function formatScalar(value: Scalar | undefined, unit: ValueUnit): string {
  if (value === null || value === undefined || value === '') {
    return UNKNOWN;
  }
  if (typeof value === 'boolean') {
    return value ? 'yes' : 'no';
  }
  if (typeof value === 'string') {
    return value;
  }
  switch (unit) {
    case 'bytes':
      return formatBytes(value);
    case 'bytes-per-second':
      return formatRate(value);
    case 'percent':
      return formatPercent(value);
    case 'ms':
      return formatDurationMs(value);
    case 'kibibytes':
      return formatBytes(value * 1024);
    case 'count':
    case 'text':
      return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  }
}

/**
 * The facts a plan rule cites as evidence (`evidence[].fact`), labelled for people. Keyed by the fact names
 * the rules emit; a test checks that every fact in the real fixtures has a label here.
 */
export const EVIDENCE_LABELS: Readonly<Record<string, FieldLabel>> = {
  cipher: { label: 'Cipher', unit: 'text' },
  targetTool: { label: 'Encryption tool', unit: 'text' },
  'cpu.cores': { label: 'Processor cores', unit: 'count' },
  'cpu.hasAes': { label: 'Processor has AES instructions', unit: 'text' },
  'device.hpaSupported': { label: 'Drive supports a Host Protected Area', unit: 'text' },
  'device.logicalSectorBytes': { label: 'Logical sector size', unit: 'bytes' },
  'device.physicalSectorBytes': { label: 'Physical sector size', unit: 'bytes' },
  'device.nvmeNamespaceManagement': { label: 'Drive supports NVMe namespace management', unit: 'text' },
  'options.speedOverSecurity': { label: 'Speed preferred over security', unit: 'text' },
  'options.encryptedBoot': { label: 'GRUB unlocks /boot from this volume', unit: 'text' },
  'trim.firstBlockingLayer': { label: 'First layer that blocks discards', unit: 'text' },
  'device.rotational': { label: 'Spinning disk', unit: 'text' },
  'device.sizeBytes': { label: 'Disk size', unit: 'bytes' },
  'health.dataWrittenBytes': { label: 'Data written over the drive’s life', unit: 'bytes' },
  'health.ratedEnduranceBytes': { label: 'Rated write endurance', unit: 'bytes' },
  'health.verdict': { label: 'Health verdict', unit: 'text' },
  'health.wearPercentUsed': { label: 'Endurance used', unit: 'percent' },
  'health.percentageUsed': { label: 'Endurance used', unit: 'percent' },
  'kernel.adiantumAvailable': { label: 'Kernel has Adiantum', unit: 'text' },
  'kernel.version': { label: 'Kernel version', unit: 'text' },
  'kernel.xtsAesDriver': { label: 'Kernel AES-XTS driver', unit: 'text' },
  'options.passwordLength': { label: 'Passphrase length', unit: 'count' },
  'options.threatModel': { label: 'Threat model', unit: 'text' },
  'options.unlockTimeMs': { label: 'Unlock time you asked for', unit: 'ms' },
  'options.workload': { label: 'Workload', unit: 'text' },
  'space.factorySpareBytes': { label: 'Factory spare area', unit: 'bytes' },
  'space.lastPartitionEndSector': { label: 'Last partition ends at sector', unit: 'count' },
  'space.partitionTable': { label: 'Partition table', unit: 'text' },
  'space.unallocatedBytes': { label: 'Space in no partition', unit: 'bytes' },
  'trim.deviceSupportsTrim': { label: 'Drive supports TRIM', unit: 'text' },
  'trim.readsZeroAfterTrim': { label: 'Trimmed blocks read back as zeroes', unit: 'text' },
  'trim.readsZeroesAfterTrim': { label: 'Trimmed blocks read back as zeroes', unit: 'text' },
  // The assessment paths the rules cite since issue 9 (rules read the assessment's own sections).
  'machine.cryptoFlags.aes': { label: 'Processor has AES instructions', unit: 'text' },
  'machine.logicalCores': { label: 'Processor cores', unit: 'count' },
  'machine.os.kernel': { label: 'Kernel version', unit: 'text' },
  'machine.memoryBytes': { label: 'Memory', unit: 'bytes' },
  'kernelCrypto.adiantum': { label: 'Kernel has Adiantum', unit: 'text' },
  'kernelCrypto.xtsAes': { label: 'Kernel AES-XTS driver', unit: 'text' },
  'disk.logicalSectorBytes': { label: 'Logical sector size', unit: 'bytes' },
  'disk.physicalSectorBytes': { label: 'Physical sector size', unit: 'bytes' },
  'disk.sizeBytes': { label: 'Disk size', unit: 'bytes' },
  'disk.partitionTable': { label: 'Partition table', unit: 'text' },
  'disk.isSystemDisk': { label: 'System disk', unit: 'text' },
  'media.kind': { label: 'Media', unit: 'text' },
  'overProvisioning.factorySpareBytes': { label: 'Factory spare area', unit: 'bytes' },
  'space.nvme.namespaceManagementSupported': {
    label: 'Drive supports NVMe namespace management',
    unit: 'text',
  },
  'space.hostProtectedArea': { label: 'Host Protected Area', unit: 'text' },
  // The target admission of issue 26 (rules/target-admission.ts: luks2-opal).
  'sed.status': { label: 'Self-encrypting drive', unit: 'text' },
  'sed.opal2': { label: 'Drive implements TCG Opal 2', unit: 'text' },
  'sed.pyrite': { label: 'Drive reports TCG Pyrite (locking without encryption)', unit: 'text' },
  'disk.transport': { label: 'Drive connection', unit: 'text' },
  // The macOS and Windows rules (targets/<id>/plan.ts, rules/platform-trim.ts): the storage model's fields, and the names plans
  // of assessment 1.3 documents cited (encryption.volume, .format, .method).
  'disk.identifier': { label: 'Disk', unit: 'text' },
  'disk.internal': { label: 'Internal drive', unit: 'text' },
  'disk.medium': { label: 'Media', unit: 'text' },
  'cpu.aes': { label: 'Processor has AES instructions', unit: 'text' },
  'trim.driveSupports': { label: 'Drive supports TRIM', unit: 'text' },
  'trim.osSends': { label: 'Operating system sends TRIM', unit: 'text' },
  'encryption.volume': { label: 'Encrypted volume', unit: 'text' },
  'encryption.format': { label: 'Encryption format', unit: 'text' },
  'encryption.method': { label: 'Encryption method', unit: 'text' },
  'encryption.kind': { label: 'Encryption', unit: 'text' },
  'encryption.cipher': { label: 'Cipher', unit: 'text' },
  'encryption.keyBits': { label: 'Key size (bits)', unit: 'count' },
  'encryption.hardware': { label: 'Encrypted by the drive’s hardware', unit: 'text' },
  'encryption.protection': { label: 'Protection', unit: 'text' },
  'encryption.conversion': { label: 'Conversion', unit: 'text' },
  'encryption.percentEncrypted': { label: 'Encrypted so far', unit: 'percent' },
};

/**
 * Rules also cite measured speeds under descriptive names ("aes-xts 512b encrypt (one core)",
 * "argon2id … (bytes/s)"): those are already written for people; the suffix in brackets names the unit.
 */
function labelOfDescriptiveFact(fact: string): FieldLabel | null {
  const unit = /\((bytes\/s|bytes|KiB|ms|%)\)$/.exec(fact);
  if (unit === null) {
    return fact.includes(' ') ? { label: fact, unit: 'text' } : null;
  }
  const units: Readonly<Record<string, ValueUnit>> = {
    'bytes/s': 'bytes-per-second',
    bytes: 'bytes',
    KiB: 'kibibytes',
    ms: 'ms',
    '%': 'percent',
  };
  return { label: fact.slice(0, unit.index).trim(), unit: units[unit[1] ?? ''] ?? 'text' };
}

/** The label of an evidence fact; a fact with no label yet is shown by its own name, never title-cased. */
function evidenceLabel(fact: string): FieldLabel {
  return EVIDENCE_LABELS[fact] ?? labelOfDescriptiveFact(fact) ?? { label: fact, unit: 'text' };
}

/** One evidence item as label and formatted value. */
export function formatEvidence(item: Evidence): { readonly label: string; readonly value: string } {
  const label = evidenceLabel(item.fact);
  return { label: label.label, value: formatScalar(item.value, label.unit) };
}

/** Labels of the keys of typed recommendation values (e.g. the luks2-pbkdf object). */
const VALUE_KEY_LABELS: Readonly<Record<string, FieldLabel>> = {
  type: { label: 'type', unit: 'text' },
  pbkdf: { label: 'type', unit: 'text' },
  memoryKiB: { label: 'memory', unit: 'kibibytes' },
  memoryKibibytes: { label: 'memory', unit: 'kibibytes' },
  parallel: { label: 'threads', unit: 'count' },
  iterations: { label: 'iterations', unit: 'count' },
  iterTimeMs: { label: 'unlock time', unit: 'ms' },
  predictedUnlockMs: { label: 'predicted unlock', unit: 'ms' },
  hash: { label: 'hash', unit: 'text' },
  pim: { label: 'PIM', unit: 'count' },
  sizeBytes: { label: 'size', unit: 'bytes' },
  unallocatedBytes: { label: 'left unpartitioned', unit: 'bytes' },
  sectorSizeBytes: { label: 'sector size', unit: 'bytes' },
  keySizeBits: { label: 'key bits', unit: 'count' },
  percent: { label: 'share of the disk', unit: 'percent' },
  bytes: { label: 'size', unit: 'bytes' },
  partitionEndSector: { label: 'partition ends at sector', unit: 'count' },
};

/**
 * A recommendation's value as people read it: "argon2id, memory 1.0 GiB, 4 threads" rather than JSON.
 * Keys without a label are shown by name; null parts are left out (an absent setting is not "unknown").
 */
export function formatRecommendationValue(value: Recommendation['value']): string {
  if (value === null || typeof value !== 'object') {
    return formatScalar(value, 'text');
  }
  return Object.entries(value)
    .filter(([, part]) => part !== null)
    .map(([key, part]) => {
      const label = VALUE_KEY_LABELS[key] ?? { label: key, unit: 'text' as const };
      return `${label.label} ${formatScalar(part, label.unit)}`;
    })
    .join(', ');
}

/** An ISO timestamp as people read it: "2026-11-23 22:40 UTC" (the raw text when it is no timestamp). */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
