import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_GLOBAL, channels } from '../../src/shared/bridge.js';

vi.mock('electron', () => import('../mocks/electron-fake.js'));
const { recorded } = await import('../mocks/electron-fake.js');

describe('preload', () => {
  it('exposes exactly the bridge, once, as window.encplan, each method invoking its own channel', async () => {
    recorded.reset();
    await import('../../src/preload/index.js');
    expect(recorded.exposed).toHaveLength(1);
    const [{ key, api }] = recorded.exposed as [
      { key: string; api: Record<string, (...args: unknown[]) => Promise<unknown>> },
    ];
    expect(key).toBe(BRIDGE_GLOBAL);
    expect(key).toBe('encplan');
    expect(Object.keys(api).sort()).toEqual(Object.keys(channels).sort());
    for (const [method, channel] of Object.entries(channels)) {
      recorded.invokes.length = 0;
      const argument =
        method === 'startAssessment' || method === 'benchmarkFootprint'
          ? { device: '/dev/sda', benchmark: 'none', backends: [] }
          : method === 'jobStatus' || method === 'cancel'
            ? 'abcdef01'
            : undefined;
      await expect(argument === undefined ? api[method]!() : api[method]!(argument)).resolves.toEqual({
        channel,
      });
      expect(recorded.invokes).toEqual([{ channel, args: argument === undefined ? [] : [argument] }]);
    }
  });
});
