import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import type { Capture } from '../../src/capture/capture.js';
import type { CommandSpec } from '../../src/ports.js';
import { DARWIN_COMMANDS } from '../../src/probes/darwin/probe-darwin-storage.js';
import { WINDOWS_COMMANDS } from '../../src/probes/windows/probe-windows-storage.js';
import { identifiersIn, protectCaptures } from '../../src/use-cases/bundle-of.js';

const BUNDLES = fileURLToPath(new URL('../../../../fixtures/bundles/', import.meta.url));

/** Hashed by encplan, or a placeholder the publishing project put there before the capture reached us. */
const PROTECTED = /^(sha256:[0-9a-f]{16}|REDACTED)$/;

describe('committed bundles', () => {
  const names = readdirSync(BUNDLES).filter((name) => !name.includes('.'));

  it.each(names)('%s holds no unhashed serial number or WWN', (name) => {
    const bundle = parseBundle(JSON.parse(readFileSync(path.join(BUNDLES, name, 'bundle.json'), 'utf8')));
    const unprotected = identifiersIn(bundle.captures).filter((value) => !PROTECTED.test(value));
    expect(unprotected).toEqual([]);
  });

  it.each(names.filter((name) => /^(darwin|windows)-/.test(name)))(
    '%s replays only argv the platform probe set runs (scripts/build-platform-bundles.mjs)',
    (name) => {
      const bundle = parseBundle(JSON.parse(readFileSync(path.join(BUNDLES, name, 'bundle.json'), 'utf8')));
      const specs: CommandSpec[] =
        bundle.platform === 'darwin'
          ? [
              DARWIN_COMMANDS.info(bundle.device ?? ''),
              DARWIN_COMMANDS.list(bundle.device ?? ''),
              DARWIN_COMMANDS.apfsList(),
              DARWIN_COMMANDS.systemProfiler(),
              DARWIN_COMMANDS.fdesetup(),
              DARWIN_COMMANDS.sysctl(),
            ]
          : [
              WINDOWS_COMMANDS.storage(),
              // Bundles collected before the storage script selected LockStatus (windows-diskspd-benchmark-composed).
              WINDOWS_COMMANDS.storageBeforeLockStatus(),
              WINDOWS_COMMANDS.fsutil(),
              WINDOWS_COMMANDS.manageBde(),
            ];
      const known = new Set(specs.map((spec) => JSON.stringify([spec.tool, ...spec.args])));
      const probeCommands = bundle.captures.flatMap((capture) =>
        capture.kind === 'command' &&
        ['diskutil', 'system_profiler', 'fdesetup', 'sysctl', 'powershell', 'fsutil', 'manage-bde'].includes(
          capture.tool,
        ) &&
        // The benchmark's own commands name its resources (encplan-bench-<pid>-…), not a probe's.
        !capture.argv.some((arg) => arg.includes('encplan-bench-')) &&
        // diskutil info and list of the physical disk behind a volume (disk1s1 → disk0) are the probe set's too.
        !(
          capture.tool === 'diskutil' &&
          ['info', 'list'].includes(capture.argv[0] ?? '') &&
          capture.argv[2] !== bundle.device
        )
          ? [JSON.stringify([capture.tool, ...capture.argv])]
          : [],
      );
      expect(probeCommands.length).toBeGreaterThan(0);
      expect(probeCommands.filter((argv) => !known.has(argv))).toEqual([]);
    },
  );

  it('finds the serial of every platform tool, so the check above can fail', async () => {
    const command = (tool: 'system_profiler' | 'powershell' | 'smartctl', stdout: string): Capture => ({
      kind: 'command',
      tool,
      argv: [],
      stdinBytes: 0,
      output: { exitCode: 0, stdout, stderr: '', durationMs: 0 },
      error: null,
    });
    // The AP0256Z's serial as system_profiler printed it, before the bundles were built through protectCaptures.
    const raw = [
      command('system_profiler', '{ "device_serial" : "0ba018e4045c5e3e" }'),
      command('powershell', '{"SerialNumber":  "S4EWNX0R123456"}'),
      command('smartctl', '{"serial_number": "WD-WCC4N1234567"}'),
    ];
    expect(identifiersIn(raw).filter((value) => !PROTECTED.test(value))).toHaveLength(3);
    const hashed = await protectCaptures(raw, false);
    expect(identifiersIn(hashed).every((value) => PROTECTED.test(value))).toBe(true);
    expect(JSON.stringify(hashed)).not.toContain('0ba018e4045c5e3e');
    expect(await protectCaptures(raw, true)).toEqual(raw);
  });
});

describe('the kernel command line in a bundle', () => {
  it('keeps only its mitigations= parameters (what encplan reads), nothing else a boot loader was given', async () => {
    const captures: Capture[] = [
      {
        kind: 'read-text',
        path: '/proc/cmdline',
        result:
          'BOOT_IMAGE=/vmlinuz root=UUID=1234 cryptdevice=/dev/sda2:root mitigations=auto,nosmt quiet -- mitigations=off init-arg\n',
        error: null,
      },
      { kind: 'read-text', path: '/proc/cpuinfo', result: 'root=UUID=1234', error: null },
    ];
    const [cmdline, other] = await protectCaptures(captures, true);
    expect(cmdline).toMatchObject({ path: '/proc/cmdline', result: 'mitigations=auto,nosmt' });
    // Only the kernel command line is cut: other reads are kept whole.
    expect(other).toMatchObject({ path: '/proc/cpuinfo', result: 'root=UUID=1234' });
  });
});
