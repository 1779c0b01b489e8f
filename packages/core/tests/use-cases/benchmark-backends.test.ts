import { describe, expect, it } from 'vitest';
import { probeBenchmarkBackends } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { fixture } from '../support/fixtures.js';

// A real quick benchmark run as root on a Debian 12 VM whose kernel has no device-mapper (PROVENANCE.md).
const original: Bundle = parseBundle(
  JSON.parse(fixture('bundles/loop-ext4-mounted-benchmark-quick-debian12/bundle.json')),
);

function backendsOf(bundle: Bundle, privileged = bundle.privileged) {
  return probeBenchmarkBackends(createReplayHost({ ...bundle, privileged }));
}

/** The bundle with the tools in `absent` answered as not on PATH. */
function without(absent: readonly string[]): Bundle {
  return {
    ...original,
    captures: original.captures.map((capture) =>
      capture.kind === 'which-tool' && absent.includes(capture.tool) ? { ...capture, result: null } : capture,
    ),
  };
}

describe('the benchmark choices the wizard offers on this machine', () => {
  it('offers what the machine can run and says why LUKS2 cannot run where the kernel lacks device-mapper', async () => {
    const backends = await backendsOf(original);
    const byId = new Map(backends.map((backend) => [backend.id, backend]));
    expect(byId.get('ciphers')).toMatchObject({ available: true, reason: null });
    expect(byId.get('plain')).toMatchObject({ available: true, reason: null });
    expect(byId.get('fscrypt')).toMatchObject({ available: true, reason: null });
    expect(byId.get('luks2')?.available).toBe(false);
    expect(byId.get('luks2')?.reason).toContain('device-mapper, which this kernel lacks');
    // veracrypt was looked up and not found: the reason names the tool and where it comes from.
    expect(byId.get('veracrypt')?.reason).toContain(
      'veracrypt (Debian package veracrypt (from veracrypt.fr)), which is not installed',
    );
  });

  it('without root, every I/O choice says it needs administrator rights; cipher speed stays available', async () => {
    const backends = await backendsOf(original, false);
    for (const backend of backends.filter((entry) => entry.id !== 'ciphers')) {
      expect(backend.available).toBe(false);
      expect(backend.reason).toContain('administrator rights');
    }
    expect(backends.find((backend) => backend.id === 'ciphers')?.available).toBe(true);
  });

  it('names each missing tool with its Debian package', async () => {
    const backends = await backendsOf(without(['fio', 'cryptsetup', 'openssl']));
    const plain = backends.find((backend) => backend.id === 'plain');
    expect(plain).toMatchObject({
      available: false,
      reason: 'Needs fio (Debian package fio), which is not installed.',
    });
    expect(backends.find((backend) => backend.id === 'ciphers')?.reason).toBe(
      'Needs cryptsetup or openssl, neither of which is installed (Debian package cryptsetup-bin or openssl).',
    );
  });

  it('offers nothing off Linux, and says so', async () => {
    const backends = await probeBenchmarkBackends(
      createReplayHost({ platform: 'darwin', cwd: '/', privileged: true, captures: [] }),
    );
    expect(
      backends.every((backend) => !backend.available && backend.reason?.includes('darwin') === true),
    ).toBe(true);
  });
});
