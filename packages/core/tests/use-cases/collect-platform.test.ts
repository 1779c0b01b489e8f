import { describe, expect, it } from 'vitest';
import { type Host } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { DARWIN_COMMANDS } from '../../src/probes/darwin/probe-darwin-storage.js';
import { type Capture } from '../../src/capture/capture.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { assessBundle, collect } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T20:00:00Z') };

/** A Mac that answers with the real system_profiler capture (its serial as printed) and optionally smartctl. */
function appleSiliconMac(withSmartctl: boolean): Host {
  const profiler = DARWIN_COMMANDS.systemProfiler();
  const captures: Capture[] = [
    {
      kind: 'command',
      tool: profiler.tool,
      argv: [...profiler.args],
      stdinBytes: 0,
      output: {
        exitCode: 0,
        stdout: fixture('system-profiler/spnvme-spstorage-apple-silicon-ap0256z-json/stdout.json'),
        stderr: '',
        durationMs: 1,
      },
      error: null,
    },
  ];
  if (withSmartctl) {
    captures.push(
      { kind: 'which-tool', tool: 'smartctl', result: '/opt/homebrew/bin/smartctl', error: null },
      {
        kind: 'command',
        tool: 'smartctl',
        argv: ['--json=v', '-x', '--', '/dev/disk0'],
        stdinBytes: 0,
        // A different Apple-silicon Mac's smartctl 7.5 (fixture smartctl/macos-apple-ssd-ap0512z…), exit status 4.
        output: {
          exitCode: 4,
          stdout: fixture('smartctl/macos-apple-ssd-ap0512z-nvme-exit4-v7.5/stdout.json'),
          stderr: '',
          durationMs: 1,
        },
        error: null,
      },
    );
  } else {
    captures.push({ kind: 'which-tool', tool: 'smartctl', result: null, error: null });
  }
  return createReplayHost({ platform: 'darwin', cwd: '/', privileged: false, captures });
}

describe('encplan collect on macOS', () => {
  it('keeps the serial when asked to', async () => {
    const { bundle } = await collect(
      { host: appleSiliconMac(false), clock },
      { device: 'disk0', includeSerials: true },
    );
    expect(JSON.stringify(bundle)).toContain('0ba018e4045c5e3e');
  });
});

describe('encplan collect and assess on macOS (the assessment 1.2 path)', () => {
  it('collect records a bundle without the serial; assess --bundle replays it to the same platform facts and plan', async () => {
    const { envelope, bundle } = await collect(
      { host: appleSiliconMac(true), clock },
      { device: 'disk0', includeSerials: false },
    );
    expect(envelope.status).not.toBe('error');
    expect(envelope.result?.storage?.disk.health).toMatchObject({ source: 'smartctl', wearPercent: 3 });
    // Assessment 1.4: the storage model holds the platform's facts; the deprecated field is no longer written.
    expect(envelope.result).not.toHaveProperty('platformStorage');
    expect(envelope.result?.disk).toBeNull();
    expect(envelope.result?.plan?.targetTool).toBe('apfs');
    // The health gate acts on smartctl's verdict, cited as smartctl.
    expect(envelope.result?.plan?.healthGate.status).toBe('proceed');
    expect(JSON.stringify(bundle)).not.toContain('0ba018e4045c5e3e');
    const replayed = await assessBundle(parseBundle(JSON.parse(JSON.stringify(bundle))), clock);
    expect(replayed.result?.storage).toEqual(envelope.result?.storage);
    expect(replayed.result?.plan).toEqual(envelope.result?.plan);
  });

  it('refuses an assessment without a disk on macOS (no working-directory lookup there)', async () => {
    await expect(
      collect({ host: appleSiliconMac(false), clock }, { device: null, includeSerials: false }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
