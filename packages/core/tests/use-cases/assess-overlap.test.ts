import { describe, expect, it } from 'vitest';
import { assess, assessBundle, toolNotFound } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { createRecordingHost } from '../../src/capture/recording-host.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import type { CommandSpec, Host } from '../../src/ports.js';
import { fixture } from '../support/fixtures.js';

// Issue 28: a one-disk assessment reads the host facts (fstrim.timer through systemctl, /proc) and the discard
// stack beside the disk's own tools instead of after them; the result, warnings and recorded captures stay the
// same whichever finishes first.
const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const bundle: Bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));

type Event = `${'start' | 'end'} ${string}`;

/**
 * The bundle's replay host whose commands report when they start and end; `hold(tool)` keeps a tool's answer
 * back until `release(tool)` (or 2 s, so a run that never releases it still finishes and the test fails on order).
 */
function observedHost(hold: (spec: CommandSpec) => string | null): { host: Host; events: Event[] } {
  const inner = createReplayHost(bundle);
  const events: Event[] = [];
  const started = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const startedSignal = (tool: string) => {
    if (!waiting.has(tool)) {
      waiting.set(tool, new Promise<void>((resolve) => started.set(tool, resolve)));
    }
    return waiting.get(tool)!;
  };
  const host: Host = {
    ...inner,
    async run(spec, signal) {
      events.push(`start ${spec.tool}`);
      void startedSignal(spec.tool);
      started.get(spec.tool)?.();
      const waitFor = hold(spec);
      if (waitFor !== null) {
        await Promise.race([startedSignal(waitFor), new Promise((resolve) => setTimeout(resolve, 2000))]);
      }
      try {
        return await inner.run(spec, signal);
      } finally {
        events.push(`end ${spec.tool}`);
      }
    },
  };
  return { host, events };
}

function runOn(host: Host) {
  return assess(
    { host, clock },
    {
      device: bundle.device,
      includeSerials: bundle.serialsIncluded,
      mode: 'bundle',
      collectedAt: new Date(bundle.collectedAt),
    },
  );
}

describe('one-disk assess: independent reads overlap (issue 28)', () => {
  it('starts systemctl (fstrim.timer) while lsblk is still running', async () => {
    // lsblk answers only once systemctl has started: read one after another, systemctl would start after it.
    const { host, events } = observedHost((spec) => (spec.tool === 'lsblk' ? 'systemctl' : null));
    await runOn(host);
    expect(events.indexOf('start systemctl')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('start systemctl')).toBeLessThan(events.indexOf('end lsblk'));
  });

  it('starts smartctl while the discard stack is read, and the host facts while the disk is', async () => {
    // smartctl answers only once systemctl has started, and systemctl only once sfdisk has: each waits for a
    // read that, one after another, would come after it.
    const { host, events } = observedHost((spec) =>
      spec.tool === 'smartctl' ? 'systemctl' : spec.tool === 'systemctl' ? 'sfdisk' : null,
    );
    await runOn(host);
    expect(events.indexOf('start systemctl')).toBeLessThan(events.indexOf('end smartctl'));
    expect(events.indexOf('start sfdisk')).toBeLessThan(events.indexOf('end systemctl'));
  });

  it('gives the same document, warnings and captures whichever read finishes first', async () => {
    const sequential = await assessBundle(bundle, clock);
    expect(sequential.warnings.length).toBeGreaterThan(0);
    // systemctl held until smartctl started (it finishes last), or answered at once (it finishes first).
    const runs = await Promise.all(
      [(spec: CommandSpec) => (spec.tool === 'systemctl' ? 'smartctl' : null), () => null].map(
        async (hold) => {
          const recording = createRecordingHost(observedHost(hold).host);
          return { envelope: await runOn(recording), captures: recording.captures() };
        },
      ),
    );
    for (const { envelope } of runs) {
      expect(envelope).toEqual(sequential);
    }
    const [last, first] = runs.map(({ captures }) => captures.map((capture) => JSON.stringify(capture)));
    expect(last!.some((capture) => capture.includes('"tool":"systemctl"'))).toBe(true);
    expect(last).toEqual(first);
  });

  it('stops the reads beside the disk when the disk cannot be read', async () => {
    const inner = createReplayHost(bundle);
    let systemctlSignal: AbortSignal | undefined;
    const host: Host = {
      ...inner,
      async run(spec, signal) {
        if (spec.tool === 'lsblk') {
          // Let systemctl start first, then fail as a machine without lsblk does.
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw toolNotFound('lsblk');
        }
        if (spec.tool === 'systemctl') {
          systemctlSignal = signal;
          // A hung systemctl: it answers only when cancelled (or after 2 s).
          await new Promise((resolve) => {
            signal?.addEventListener('abort', resolve);
            setTimeout(resolve, 2000);
          });
        }
        return inner.run(spec, signal);
      },
    };
    await expect(runOn(host)).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect(systemctlSignal?.aborted).toBe(true);
  });
});
