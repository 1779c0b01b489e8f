import type { HostReadCapture } from '../../src/capture/capture.js';
import { fixture } from './fixtures.js';

/** `grep . DIR/*` output ("path:text" per line), as fixtures/cpu-vulnerabilities holds it, as file name → text. */
export function filesFromGrep(listing: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      files.set(line.slice(0, colon).split('/').pop() ?? '', line.slice(colon + 1));
    }
  }
  return files;
}

/** The host reads of a machine whose vulnerability files are this fixture listing (replay-host captures). */
export function vulnerabilityReads(listing: string, commandLine: string | null): HostReadCapture[] {
  const directory = '/sys/devices/system/cpu/vulnerabilities';
  const files = filesFromGrep(fixture(listing));
  return [
    { kind: 'list-dir' as const, path: directory, result: [...files.keys()].sort(), error: null },
    ...[...files.entries()].map(([name, text]) => ({
      kind: 'read-text' as const,
      path: `${directory}/${name}`,
      result: `${text}\n`,
      error: null,
    })),
    { kind: 'read-text' as const, path: '/proc/cmdline', result: commandLine, error: null },
  ];
}
