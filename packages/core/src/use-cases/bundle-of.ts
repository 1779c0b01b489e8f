import { BUNDLE_SCHEMA, BUNDLE_SCHEMA_VERSION, redactCaptures, type Bundle } from '../capture/bundle.js';
import type { Capture } from '../capture/capture.js';
import type { RecordingHost } from '../capture/recording-host.js';
import { protectIdentifier } from '../domain/identifier.js';
import { kernelParameters } from '../parsers/cpu-vulnerabilities/cpu-vulnerabilities.js';
import { parseLsblkJson, type LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import { TOOL_VERSION } from '../version.js';

/** Serial numbers in what the macOS/Windows tools print: system_profiler, PowerShell, smartctl. */
const SERIAL_PATTERNS: readonly RegExp[] = [
  /"device_serial"\s*:\s*"([^"]+)"/g,
  /"SerialNumber"\s*:\s*"([^"]+)"/g,
  /"serial_number"\s*:\s*"([^"]+)"/g,
];

function lsblkIdentifiers(capture: Capture): string[] {
  if (capture.kind !== 'command' || capture.tool !== 'lsblk' || capture.output?.exitCode !== 0) {
    return [];
  }
  const found: string[] = [];
  const walk = (device: LsblkDevice): void => {
    for (const value of [device.serial, device.wwn]) {
      if (value !== null) {
        found.push(value);
      }
    }
    device.children.forEach(walk);
  };
  try {
    parseLsblkJson(capture.output.stdout).forEach(walk);
  } catch {
    // An lsblk output that does not parse carries nothing we could redact reliably; assess warned.
  }
  return found;
}

/**
 * Every serial number and WWN in the captures: lsblk's on Linux; system_profiler's, PowerShell's and
 * smartctl's on macOS and Windows. What `collect` hashes, and what the bundle tests look for.
 */
export function identifiersIn(captures: readonly Capture[]): string[] {
  return captures.flatMap((capture) => [
    ...lsblkIdentifiers(capture),
    ...(capture.kind === 'command' && capture.output !== null
      ? SERIAL_PATTERNS.flatMap((pattern) =>
          [...capture.output!.stdout.matchAll(pattern)].map((match) => (match[1] ?? '').trim()),
        )
      : []),
  ]);
}

/**
 * The kernel command line as a bundle keeps it: only its `mitigations=` parameters (the one thing encplan reads
 * from it, machine.mitigations), in order, up to the `--` that ends the kernel's own parameters (kernel
 * Documentation/admin-guide/kernel-parameters.rst). Anything else on it (root=, cryptdevice=, rd.luks.* and
 * whatever a boot loader was given) never leaves the machine in a bundle.
 */
function kernelCommandLineForBundle(commandLine: string): string {
  return kernelParameters(commandLine)
    .filter((word) => word.startsWith('mitigations='))
    .join(' ');
}

/** Captures with the kernel command line cut to what encplan reads ({@link kernelCommandLineForBundle}). */
function minimisedCaptures(captures: readonly Capture[]): Capture[] {
  return captures.map((capture) =>
    capture.kind === 'read-text' && capture.path === '/proc/cmdline' && capture.result !== null
      ? { ...capture, result: kernelCommandLineForBundle(capture.result) }
      : capture,
  );
}

/**
 * Serial numbers and WWNs in the captures replaced by their hashes (unless kept), and the kernel command line
 * cut to its `mitigations=` parameters, ready for a bundle.
 */
export async function protectCaptures(
  captures: readonly Capture[],
  includeSerials: boolean,
): Promise<Bundle['captures']> {
  const replacements = new Map<string, string>();
  if (!includeSerials) {
    for (const raw of identifiersIn(captures)) {
      replacements.set(raw, (await protectIdentifier(raw, false)) ?? raw);
    }
  }
  return redactCaptures(minimisedCaptures(captures), replacements);
}

/** The bundle of a recorded run (every platform), its identifiers hashed unless `serialsIncluded`. */
export async function bundleOf(
  host: RecordingHost,
  collectedAt: Date,
  scope: Pick<Bundle, 'device' | 'serialsIncluded' | 'benchmark'> & { all?: true },
): Promise<Bundle> {
  return {
    schema: BUNDLE_SCHEMA,
    schemaVersion: [...BUNDLE_SCHEMA_VERSION],
    toolVersion: TOOL_VERSION,
    collectedAt: collectedAt.toISOString(),
    platform: host.platform,
    cwd: host.cwd,
    privileged: host.privileged,
    ...scope,
    captures: await protectCaptures(host.captures(), scope.serialsIncluded),
  };
}
