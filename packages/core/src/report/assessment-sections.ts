import { formatRateBytesPerSecond, formatSizeBytes } from './format-units.js';
import { asArray, asNumber, asString, isObject, type Json } from './json-reading.js';
import type { FactView, FindingView, Tone } from './report-view.js';

/**
 * Readings of the assessment's fact sections that carry no verdict of their own (space, machine, the
 * stack's discard limits, existing encryption, capabilities): what they say, in one sentence, without
 * inventing a rule. Verdicts belong to the analyses and the plan (issues 3 and 5).
 */
export interface Interpretation {
  readonly tone: Tone;
  readonly verdict: string;
  readonly summary: string;
  readonly findings: readonly FindingView[];
  readonly facts: readonly FactView[];
  /** True when the section's own facts, findings and advice must not be shown (they contradict what is known). */
  readonly replacesSectionDetails?: boolean;
}

/**
 * A disk without a partition table that is itself mounted (a filesystem on the whole disk) has no
 * never-allocated space, and advice to discard "unallocated" space there would erase the filesystem: the
 * space section then says so and shows nothing else, whatever verdict the analysis gave.
 */
export function interpretWholeDiskUse(result: Json): Interpretation | null {
  const stack = isObject(result.stack) ? result.stack : {};
  const wholeDiskMounts = asArray(stack.mountpoints).filter((mount): mount is string => typeof mount === 'string');
  if (!isObject(result.disk) || result.disk.partitionTable !== 'none' || wholeDiskMounts.length === 0) {
    return null;
  }
  return {
    tone: 'info',
    verdict: 'used-whole',
    summary: `The disk has no partition table and is used whole (mounted at ${wholeDiskMounts.join(', ')}): there is no unpartitioned spare area.`,
    findings: [],
    facts: [],
    replacesSectionDetails: true,
  };
}

/** Space (contract `space`): never-allocated bytes and where they lie. */
export function interpretSpace(space: Json, result: Json): Interpretation | null {
  const unallocated = asNumber(space.unallocatedBytes);
  const percent = asNumber(space.unallocatedPercent);
  if (unallocated === null || percent === null) {
    return null;
  }
  const usedWhole = interpretWholeDiskUse(result);
  if (usedWhole !== null) {
    return usedWhole;
  }
  const findings = asArray(space.regions).filter(isObject).map((region): FindingView => {
    const size = asNumber(region.sizeBytes) ?? 0;
    const start = asNumber(region.startBytes) ?? 0;
    return { tone: 'info', message: `${formatSizeBytes(size)} never allocated (${asString(region.location) ?? 'region'}), starting at byte ${start.toLocaleString('en-US')}.`, source: 'sfdisk / lsblk: partition layout' };
  });
  return {
    tone: 'info',
    verdict: 'measured',
    summary: `${formatSizeBytes(unallocated)} (${String(Math.round(percent * 10) / 10)} %) of the disk is in no partition: space the drive can use as spare area once it has been trimmed.`,
    findings,
    facts: [],
  };
}

/** Machine (contract `machine`): whether the CPU has AES instructions, flattened flags as facts. */
export function interpretMachine(machine: Json): Interpretation | null {
  const flags = isObject(machine.cryptoFlags) ? machine.cryptoFlags : null;
  if (flags === null) {
    return null;
  }
  const source = asString(machine.cryptoFlagsSource);
  const facts: FactView[] = Object.entries(flags).map(([name, value]) => ({ label: `CPU instruction ${name}`, value: value === true ? 'yes' : 'no', source }));
  const aes = flags.aes === true;
  const os = isObject(machine.os) ? machine.os : null;
  const extra: FactView[] =
    os === null ? [] : [{ label: 'Operating system', value: `${asString(os.distro) ?? ''} ${asString(os.release) ?? ''}, kernel ${asString(os.kernel) ?? '?'}`.trim(), source: 'systeminformation' }];
  return {
    tone: aes ? 'good' : 'attention',
    verdict: aes ? 'aes-instructions' : 'no-aes-instructions',
    summary: aes
      ? 'The processor has AES instructions, so AES-XTS encryption can run at several GB/s per core (if the kernel uses them).'
      : 'The processor has no AES instructions: AES encryption will cost CPU; Adiantum is the usual alternative.',
    findings: [],
    facts: [...extra, ...facts],
  };
}

/** The stack (contract `stack`): whether every layer from the disk up accepts discards (sysfs). */
export function interpretStackDiscard(stack: Json): Interpretation | null {
  const layers: { path: string; maxBytes: number }[] = [];
  const walk = (node: Json): void => {
    const discard = isObject(node.discard) ? node.discard : null;
    const maxBytes = discard === null ? null : asNumber(discard.maxBytes);
    if (maxBytes !== null) {
      layers.push({ path: asString(node.path) ?? '?', maxBytes });
    }
    asArray(node.children).filter(isObject).forEach(walk);
  };
  walk(stack);
  if (layers.length === 0) {
    return null;
  }
  const blocked = layers.filter((layer) => layer.maxBytes === 0);
  const source = 'sysfs: queue/discard_max_bytes';
  return {
    tone: blocked.length === 0 ? 'info' : 'attention',
    verdict: blocked.length === 0 ? 'kernel-accepts-discards' : 'discards-blocked',
    summary:
      blocked.length === 0
        ? 'The kernel accepts discards at every layer of this disk’s stack. Whether the drive itself honours TRIM was not checked in this assessment.'
        : `Discards stop at ${blocked.map((layer) => layer.path).join(', ')}: free space there never reaches the drive as TRIM.`,
    findings: blocked.map((layer) => ({ tone: 'attention', message: `${layer.path} does not pass discards (discard_max_bytes is 0).`, source })),
    facts: layers.map((layer) => ({ label: `Largest discard at ${layer.path}`, value: layer.maxBytes === 0 ? 'none (no discards)' : formatSizeBytes(layer.maxBytes), source })),
  };
}

/** Existing encryption (contract `encryption`): what is there already, and what cannot be known. */
export function interpretEncryption(encryption: Json): Interpretation | null {
  const found = asArray(encryption.found).filter(isObject);
  const note = asString(encryption.note);
  if (!Array.isArray(encryption.found)) {
    return null;
  }
  const findings: FindingView[] = found.map((entry) => {
    const keyBits = asNumber(entry.keyBits);
    const details = [asString(entry.cipher), keyBits === null ? null : `${String(keyBits)}-bit key`].filter((part) => part !== null).join(', ');
    return { tone: 'info', message: `${(asString(entry.format) ?? 'encryption').toUpperCase()} on ${asString(entry.path) ?? '?'}${details === '' ? '' : ` (${details})`}.`, source: asString(entry.source) };
  });
  if (note !== null) {
    findings.push({ tone: 'unknown', message: note, source: null });
  }
  return {
    tone: 'info',
    verdict: found.length === 0 ? 'none-found' : 'found',
    summary: found.length === 0 ? 'No existing encryption was found on this disk.' : `This disk already holds ${String(found.length)} encrypted volume${found.length === 1 ? '' : 's'}.`,
    findings,
    facts: [],
  };
}

/** Capabilities (contract `capabilities`): kernel and platform features, and what a missing one costs. */
export function interpretCapabilities(capabilities: unknown[]): Interpretation | null {
  const entries = capabilities.filter(isObject);
  if (entries.length === 0) {
    return null;
  }
  const missing = entries.filter((entry) => entry.present !== true);
  return {
    tone: missing.length === 0 ? 'good' : 'attention',
    verdict: missing.length === 0 ? 'all-present' : `${String(missing.length)}-missing`,
    summary:
      missing.length === 0
        ? 'Everything encplan needs on this machine is available.'
        : `${String(missing.length)} of ${String(entries.length)} features encplan uses are missing here; some measurements will be replaced or skipped.`,
    findings: missing.map((entry) => ({ tone: 'attention', message: `${asString(entry.id) ?? '?'}: ${asString(entry.costWhenMissing) ?? ''}`, source: asString(entry.evidence) })),
    facts: entries.map((entry) => ({ label: asString(entry.id) ?? '?', value: entry.present === true ? 'present' : 'missing', source: asString(entry.evidence) })),
  };
}

/** The cost of the missing capabilities among `ids`, as one sentence for a "not measured" reason. */
export function missingCapabilityReason(result: Json, ids: readonly string[]): string | null {
  const costs = asArray(result.capabilities)
    .filter(isObject)
    .filter((entry) => entry.present !== true && ids.includes(asString(entry.id) ?? ''))
    .map((entry) => asString(entry.costWhenMissing))
    .filter((cost): cost is string => cost !== null);
  return costs.length === 0 ? null : costs.join(' ');
}

/** Discard passthrough (contract `discardPassthrough`): where discards stop, the fix, and what they leak. */
export function discardPassthroughFindings(passthrough: Json): FindingView[] {
  return asArray(passthrough.paths)
    .filter(isObject)
    .flatMap((path): FindingView[] => {
      const top = asString(path.topPath) ?? '?';
      const blocking = asString(path.firstBlockingLayer);
      const fix = asString(path.fix);
      const reach = path.discardsReachDrive;
      const leaks = asArray(path.leaks).filter((leak): leak is string => typeof leak === 'string');
      const main: FindingView =
        reach === true
          ? { tone: 'good', message: `Discards from ${top} reach the drive.`, source: 'sysfs: queue/discard_max_bytes, dm table' }
          : {
              tone: reach === false ? 'attention' : 'unknown',
              message: `Discards from ${top} ${blocking === null ? 'may not reach the drive' : `stop at ${blocking}`}.${fix === null ? '' : ` Fix: ${fix}`}`,
              source: 'sysfs: queue/discard_max_bytes, dm table',
            };
      return [main, ...leaks.map((leak): FindingView => ({ tone: 'info', message: `Passing discards through encryption reveals: ${leak}`, source: null }))];
    });
}

/** Cipher benchmark (`encplan benchmark ciphers` result): measured speeds, what was not measured, findings. */
export function interpretCipherBenchmark(benchmark: Json): Interpretation | null {
  const speed = isObject(benchmark.cipherSpeed) ? benchmark.cipherSpeed : null;
  if (speed === null) {
    return null;
  }
  const facts: FactView[] = asArray(speed.measurements)
    .filter(isObject)
    .map((row) => {
      const rate = (key: string): string | null => {
        const value = asNumber(row[key]);
        return value === null ? null : formatRateBytesPerSecond(value);
      };
      const parts = [
        rate('encryptBytesPerSecond') === null ? null : `encrypt ${rate('encryptBytesPerSecond') ?? ''}`,
        rate('decryptBytesPerSecond') === null ? null : `decrypt ${rate('decryptBytesPerSecond') ?? ''}`,
        rate('allCoresEncryptBytesPerSecond') === null ? null : `all cores ${rate('allCoresEncryptBytesPerSecond') ?? ''}`,
      ].filter((part) => part !== null);
      return { label: `${asString(row.cipher) ?? '?'} (${String(asNumber(row.keyBits) ?? '?')}-bit key)`, value: parts.join(', '), source: asString(row.source) };
    });
  const unmeasured = asArray(speed.unmeasured)
    .filter(isObject)
    .map((row): FindingView => ({ tone: 'unknown', message: `${asString(row.cipher) ?? '?'} not measured${asString(row.reason) === null ? '' : `: ${asString(row.reason) ?? ''}`}`, source: asString(row.source) }));
  const findings = asArray(benchmark.findings)
    .filter(isObject)
    .map((finding): FindingView => ({ tone: 'attention', message: `${asString(finding.message) ?? ''} ${asString(finding.hint) ?? ''}`.trim(), source: '/proc/crypto' }));
  return {
    tone: findings.length > 0 ? 'attention' : facts.length > 0 ? 'info' : 'unknown',
    verdict: findings.length > 0 ? 'kernel-aes-unaccelerated' : facts.length > 0 ? 'measured' : 'unknown',
    summary:
      findings.length > 0
        ? 'The kernel would encrypt with a slow, unaccelerated AES driver although the CPU has AES instructions: fix that first.'
        : facts.length > 0
          ? 'Cipher speeds measured on this machine; compare them with the drive’s speed.'
          : 'Cipher speed was not measured.',
    findings: [...findings, ...unmeasured],
    facts,
  };
}
