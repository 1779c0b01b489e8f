import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createProbeContext,
  probeCipherSpeed,
  probeKdfSpeed,
  probeKernelCrypto,
  runCipherBenchmark,
  type Host,
  type Warning,
} from '@encplan/core';
import { createNodeHost, createRunner } from '@encplan/core/node';
import {
  createFakeTools,
  REPO_ROOT,
  type FakeCase,
  type FakeTools,
} from '../../../../tests/support/fake-tools.js';
import { fixtureArgv, readFixture } from '../../../../tests/support/fixture-files.js';
import { speedProbePhases, speedProbeReductions } from '../../src/probes/cipher-speed.js';
import type { PhaseRunner } from '../../src/probes/phase-schedule.js';

/** The newest set of fake tools (its calls); a test may make several (a base host, then one reading it). */
let fakes: FakeTools | undefined;
const made: FakeTools[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((set) => set.remove()));
  fakes = undefined;
});

async function hostWith(cases: Readonly<Record<string, readonly FakeCase[]>>): Promise<Host> {
  fakes = await createFakeTools(cases);
  made.push(fakes);
  return createNodeHost(createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false }));
}

/** Runs a probe with a fresh context and returns its facts with the warnings it recorded. */
async function withWarnings<Options extends unknown[], Facts>(
  probe: (context: ReturnType<typeof createProbeContext>, ...options: Options) => Promise<Facts>,
  host: Host,
  ...options: Options
): Promise<{ facts: Facts; warnings: Warning[] }> {
  const context = createProbeContext(host);
  const facts = await probe(context, ...options);
  return { facts, warnings: context.warnings };
}

/** A fake tool case replaying a fixture folder captured with scripts/capture-fixture.sh, matched on its argv. */
function replay(tool: string, name: string): FakeCase {
  const command = JSON.parse(readFixture(tool, name, 'command.json')) as { exitCode: number };
  return {
    args: fixtureArgv(tool, name),
    stdoutFixture: `fixtures/${tool}/${name}/stdout`,
    stderr: existsSync(path.join(REPO_ROOT, 'fixtures', tool, name, 'stderr'))
      ? readFixture(tool, name, 'stderr')
      : '',
    exitCode: command.exitCode,
  };
}

const OPENSSL_QUICK = [
  ...['aes-128-xts', 'aes-256-xts', 'chacha20'].flatMap((evp) => [
    replay('openssl-speed', `x86-vaes-debian12-${evp}-1core`),
    replay('openssl-speed', `x86-vaes-debian12-${evp}-multi2`),
  ]),
  // Quick revision 3 (issue 24) also decrypts aes-256-xts on one core, so reads are predicted.
  // The capture put -decrypt before -seconds; the probe passes it last, and openssl reads either order.
  {
    ...replay('openssl-speed', 'x86-vaes-debian12-aes-256-xts-decrypt-1core'),
    args: ['speed', '-mr', '-elapsed', '-evp', 'aes-256-xts', '-seconds', '1', '-bytes', '4096', '-decrypt'],
  },
];

describe('probeCipherSpeed', () => {
  it('falls back to OpenSSL on one and all cores when cryptsetup has no AF_ALG (this machine), with the exact argv', async () => {
    const host = await hostWith({
      cryptsetup: [replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512')],
      openssl: OPENSSL_QUICK,
    });
    // Quick revision 1 (before issue 18) measured every cipher on all cores.
    const { facts, warnings } = await withWarnings(probeCipherSpeed, host, {
      quick: true,
      quickRevision: 1,
      logicalCpuCount: 2,
    });
    const calls = await fakes!.calls();
    expect(calls.map((call) => [call.tool, ...call.argv].join(' '))).toEqual([
      'cryptsetup benchmark -c aes-xts -s 512',
      'openssl speed -mr -elapsed -evp aes-128-xts -seconds 1 -bytes 4096',
      'openssl speed -mr -elapsed -evp aes-128-xts -seconds 1 -bytes 4096 -multi 2',
      'openssl speed -mr -elapsed -evp aes-256-xts -seconds 1 -bytes 4096',
      'openssl speed -mr -elapsed -evp aes-256-xts -seconds 1 -bytes 4096 -multi 2',
      'openssl speed -mr -elapsed -evp chacha20 -seconds 1 -bytes 4096',
      'openssl speed -mr -elapsed -evp chacha20 -seconds 1 -bytes 4096 -multi 2',
    ]);
    expect(facts.kernelCipherBenchmarkAvailable).toBe(false);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'KERNEL_FEATURE_MISSING', source: 'cryptsetup' }),
    ]);
    expect(
      facts.measurements.map((m) => [
        m.cipher,
        m.keyBits,
        m.source,
        m.encryptBytesPerSecond,
        m.allCoresEncryptBytesPerSecond,
        m.allCoresThreads,
      ]),
    ).toEqual([
      ['aes-xts', 256, 'openssl', 8777596928, 15730384896, 2],
      ['aes-xts', 512, 'openssl', 6245421056, 7217213440, 2],
      ['chacha20', 256, 'openssl', 5121826816, 6470737920, 2],
    ]);
    expect(facts.unmeasured.map((u) => u.cipher)).toEqual([
      'serpent-xts',
      'twofish-xts',
      'xchacha12,aes-adiantum',
    ]);
  });

  it("quick mode measures all cores for aes-256-xts only (LUKS2's cipher)", async () => {
    const host = await hostWith({
      cryptsetup: [replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512')],
      openssl: OPENSSL_QUICK.filter(
        (fake) => !fake.args?.includes('-multi') || fake.args.includes('aes-256-xts'),
      ),
    });
    const { facts } = await withWarnings(probeCipherSpeed, host, { quick: true, logicalCpuCount: 2 });
    expect(
      (await fakes!.calls()).filter((call) => call.tool === 'openssl').map((call) => call.argv.join(' ')),
    ).toEqual([
      // Quick revision 4 (issue 24 item 4): AES-128 and AES-256 on one core in three interleaved pairs.
      ...[1, 2, 3].flatMap(() => [
        'speed -mr -elapsed -evp aes-128-xts -seconds 1 -bytes 4096',
        'speed -mr -elapsed -evp aes-256-xts -seconds 1 -bytes 4096',
      ]),
      'speed -mr -elapsed -evp aes-256-xts -seconds 1 -bytes 4096 -multi 2',
      'speed -mr -elapsed -evp aes-256-xts -seconds 1 -bytes 4096 -decrypt',
      'speed -mr -elapsed -evp chacha20 -seconds 1 -bytes 4096',
    ]);
    // Every sample is kept in run order (the fake prints the same figure each time), the figure is their median.
    expect(facts.measurements.map((m) => [m.keyBits, m.encryptSamplesBytesPerSecond])).toEqual([
      [256, [8777596928, 8777596928, 8777596928]],
      [512, [6245421056, 6245421056, 6245421056]],
      [256, undefined],
    ]);
    expect(facts.measurements.map((m) => [m.cipher, m.keyBits, m.allCoresEncryptBytesPerSecond])).toEqual([
      ['aes-xts', 256, null],
      ['aes-xts', 512, 7217213440],
      ['chacha20', 256, null],
    ]);
    // The decryption figure of LUKS2's cipher is measured too (quick revision 3), so reads can be predicted.
    expect(facts.measurements.find((m) => m.keyBits === 512)?.decryptBytesPerSecond).toBeGreaterThan(0);
    expect(facts.measurements.find((m) => m.keyBits === 256)?.decryptBytesPerSecond).toBeNull();
  });

  it('keeps kernel figures from cryptsetup and lists ciphers the kernel lacks', async () => {
    // Each run's stdout is the real output of one run of a Raspberry Pi 5 transcript (gitbls/sdm), split at its
    // prompts; the "not available" answers are the first stderr line cryptsetup printed here for the same argv.
    const segments = readFixture('cryptsetup-benchmark', 'rpi5-arm64-aes-ce-adiantum-vs-aes-transcript')
      .split(/^.*\$ sudo cryptsetup.*\n/m)
      .filter((segment) => segment !== '')
      .map((segment) => segment.replace(/\n\n$/, '\n'));
    const notAvailable = (name: string) => ({
      args: fixtureArgv('cryptsetup-benchmark', name),
      stdout: readFixture('cryptsetup-benchmark', name),
      stderr: readFixture('cryptsetup-benchmark', name, 'stderr').split('\n')[0]!,
      exitCode: 1,
    });
    const host = await hostWith({
      cryptsetup: [
        notAvailable('linux-no-af-alg-debian12-aes-xts-512'),
        { args: ['benchmark', '-c', 'aes-xts', '-s', '256'], stdout: segments[1]! },
        notAvailable('linux-no-af-alg-debian12-xchacha12-adiantum'),
        { args: ['benchmark', '-c', 'xchacha20,aes-adiantum-plain64', '-s', '256'], stdout: segments[0]! },
      ],
      openssl: OPENSSL_QUICK,
    });
    const { facts, warnings } = await withWarnings(probeCipherSpeed, host, {
      quick: true,
      logicalCpuCount: 2,
    });
    expect(warnings).toEqual([]);
    expect(facts.kernelCipherBenchmarkAvailable).toBe(true);
    expect(facts.measurements.filter((m) => m.source === 'cryptsetup')).toEqual([
      expect.objectContaining({
        cipher: 'aes-xts',
        keyBits: 256,
        encryptBytesPerSecond: Math.round(1774.5 * 1048576),
        allCoresEncryptBytesPerSecond: null,
      }),
      expect.objectContaining({
        cipher: 'xchacha20,aes-adiantum',
        keyBits: 256,
        decryptBytesPerSecond: Math.round(421.6 * 1048576),
      }),
    ]);
    expect(
      facts.unmeasured
        .filter((u) => u.source === 'cryptsetup')
        .map((u) => `${u.cipher} ${String(u.keyBits)}`),
    ).toEqual(['aes-xts 512', 'xchacha12,aes-adiantum 256']);
  });

  it('treats "# Cipher speed test is not available." (older cryptsetup) like a missing AF_ALG', async () => {
    // The real header line of this machine's run plus the line older cryptsetup prints instead of a stderr message
    // (src/cryptsetup.c, reference-facts §1.1); no capture of that older output exists in the corpus.
    const header = readFixture('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512');
    const host = await hostWith({
      cryptsetup: [
        {
          args: ['benchmark', '-c', 'aes-xts', '-s', '512'],
          stdout: `${header}# Cipher speed test is not available.\n`,
        },
      ],
      openssl: OPENSSL_QUICK,
    });
    const { facts, warnings } = await withWarnings(probeCipherSpeed, host, {
      quick: true,
      logicalCpuCount: 2,
    });
    expect(facts.kernelCipherBenchmarkAvailable).toBe(false);
    expect(warnings.map((w) => w.code)).toEqual(['KERNEL_FEATURE_MISSING']);
    expect((await fakes!.calls()).filter((call) => call.tool === 'cryptsetup')).toHaveLength(1);
  });

  it('turns missing tools into warnings and still returns facts', async () => {
    const host = await hostWith({});
    const { facts, warnings } = await withWarnings(probeCipherSpeed, host, {
      quick: true,
      logicalCpuCount: 2,
    });
    expect(facts.measurements).toEqual([]);
    expect(facts.kernelCipherBenchmarkAvailable).toBeNull();
    expect(warnings.map((w) => [w.code, w.source])).toEqual([
      ['TOOL_MISSING', 'cryptsetup'],
      ['TOOL_MISSING', 'openssl'],
    ]);
  });

  it('reports an openssl that fails (unknown cipher) as a warning, not a crash', async () => {
    const failing = replay('openssl-speed', 'x86-debian12-unknown-cipher-error');
    const host = await hostWith({ openssl: [{ ...failing, args: null }] });
    const { warnings } = await withWarnings(probeCipherSpeed, host, { quick: true, logicalCpuCount: 1 });
    expect(warnings.filter((w) => w.source === 'openssl').map((w) => w.code)).toEqual([
      'TOOL_FAILED',
      'TOOL_FAILED',
      'TOOL_FAILED',
      'TOOL_FAILED',
    ]);
    expect(warnings.at(-1)?.message).toContain('is an unknown cipher or digest');
  });

  it('stops with CANCELLED when the signal fires during a run', async () => {
    const host = await hostWith({ openssl: [{ args: null, sleepMs: 10_000 }] });
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 200);
    await expect(
      probeCipherSpeed(createProbeContext(host, controller.signal), { quick: true, logicalCpuCount: 1 }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('probeKdfSpeed', () => {
  it('measures PBKDF2 per VeraCrypt hash and argon2id with the exact argv, Streebog unmeasured', async () => {
    const names = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512'].map(
      (hash) => `linux-debian12-pbkdf2-${hash}`,
    );
    const host = await hostWith({
      cryptsetup: [...names, 'linux-debian12-argon2id'].map((name) => replay('cryptsetup-benchmark', name)),
    });
    const { facts, warnings } = await withWarnings(probeKdfSpeed, host, { quick: true, quickRevision: 1 });
    expect((await fakes!.calls()).map((call) => call.argv.join(' '))).toEqual([
      'benchmark --pbkdf pbkdf2 --hash sha256',
      'benchmark --pbkdf pbkdf2 --hash sha512',
      'benchmark --pbkdf pbkdf2 --hash whirlpool',
      'benchmark --pbkdf pbkdf2 --hash blake2s-256',
      'benchmark --pbkdf pbkdf2 --hash streebog512',
      'benchmark --pbkdf argon2id',
    ]);
    expect(warnings).toEqual([]);
    expect(facts.pbkdf2.map((p) => [p.hash, p.iterationsPerSecond])).toEqual([
      ['sha256', 4161015],
      ['sha512', 1738932],
      ['whirlpool', 492289],
      ['blake2s-256', 1233618],
    ]);
    expect(facts.unmeasured.map((u) => u.hash)).toEqual(['streebog512']);
    expect(facts.argon2).toEqual([
      {
        variant: 'argon2id',
        timeCost: 4,
        memoryKibibytes: 795258,
        threads: 4,
        derivedKeyBits: 256,
        requestedDurationMs: 2000,
      },
    ]);
  });

  it('quick mode measures the hashes the rules compare and argon2id for 1000 ms, one phase per run, and says what it cut', async () => {
    const host = await hostWith({
      cryptsetup: [
        ...['sha256', 'sha512', 'whirlpool'].map((hash) =>
          replay('cryptsetup-benchmark', `linux-debian12-pbkdf2-${hash}`),
        ),
        replay('cryptsetup-benchmark', 'linux-debian12-argon2id-iter-time-1000'),
      ],
    });
    const started: string[] = [];
    const phases: PhaseRunner = {
      run: (id, _message, work) => {
        started.push(id);
        return work();
      },
      skip: () => undefined,
    };
    // Revision 4 (revision 5 repeats sha512: see "repeated PBKDF2 runs" below).
    const { facts } = await withWarnings(probeKdfSpeed, host, { quick: true, quickRevision: 4, phases });
    expect((await fakes!.calls()).map((call) => call.argv.join(' '))).toEqual([
      'benchmark --pbkdf pbkdf2 --hash sha256',
      'benchmark --pbkdf pbkdf2 --hash sha512',
      'benchmark --pbkdf pbkdf2 --hash whirlpool',
      'benchmark --pbkdf argon2id --iter-time 1000',
    ]);
    expect(started).toEqual(
      speedProbePhases({ quick: true, quickRevision: 4 })
        .filter((p) => p.id.startsWith('kdf:'))
        .map((p) => p.id),
    );
    expect(facts.argon2[0]).toMatchObject({ variant: 'argon2id', requestedDurationMs: 1000 });
    expect(facts.unmeasured).toEqual([
      { hash: 'blake2s-256', reason: expect.stringContaining('quick mode') },
      { hash: 'streebog512', reason: expect.stringContaining('quick mode') },
    ]);
    expect(speedProbeReductions({ quick: true, quickRevision: 4 })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PBKDF2: sha256, sha512, whirlpool only/),
        expect.stringMatching(/^argon2id: .*1000 ms once instead of 2000 ms 3 times/),
      ]),
    );
    expect(speedProbeReductions({ quick: false })).toEqual([]);
    // Full mode runs argon2id three times, so the iterations follow a median (issue 24 item 4).
    expect(
      speedProbePhases({ quick: false })
        .filter((p) => p.id.startsWith('kdf:argon2id'))
        .map((p) => p.id),
    ).toEqual(['kdf:argon2id', 'kdf:argon2id:2', 'kdf:argon2id:3']);
  });

  it('full mode runs argon2id three times and keeps every run for the median', async () => {
    const names = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512'].map(
      (hash) => `linux-debian12-pbkdf2-${hash}`,
    );
    const host = await hostWith({
      cryptsetup: [...names, 'linux-debian12-argon2id'].map((name) => replay('cryptsetup-benchmark', name)),
    });
    const { facts } = await withWarnings(probeKdfSpeed, host, { quick: false });
    const argon2Calls = (await fakes!.calls()).filter((call) => call.argv.includes('argon2id'));
    expect(argon2Calls.map((call) => call.argv.join(' '))).toEqual(
      Array.from({ length: 3 }, () => 'benchmark --pbkdf argon2id'),
    );
    expect(facts.argon2.map((row) => row.variant)).toEqual(['argon2id', 'argon2id', 'argon2id']);
  });

  it('lists every hash as unmeasured with a warning when cryptsetup is missing', async () => {
    const host = await hostWith({});
    const { facts, warnings } = await withWarnings(probeKdfSpeed, host);
    expect(warnings.map((w) => w.code)).toEqual(['TOOL_MISSING']);
    expect(facts.unmeasured.map((u) => u.hash)).toEqual([
      'sha256',
      'sha512',
      'whirlpool',
      'blake2s-256',
      'streebog512',
    ]);
  });
});

describe('probeKernelCrypto', () => {
  function hostReading(files: Readonly<Record<string, string>>, base: Host): Host {
    return { ...base, readText: (path) => Promise.resolve(files[path] ?? null) };
  }

  it('reads /proc/crypto and the module lists of the running kernel release', async () => {
    const base = await hostWith({});
    const requested: string[] = [];
    const files: Record<string, string> = {
      '/proc/crypto': readFixture('proc-crypto', 'x86-vm-debian12-aes-fixed-time'),
      '/proc/sys/kernel/osrelease': '6.18.44-fc-v669\n',
      '/lib/modules/6.18.44-fc-v669/modules.builtin': 'kernel/crypto/xts.ko\n',
      '/lib/modules/6.18.44-fc-v669/modules.dep': 'kernel/crypto/adiantum.ko: kernel/crypto/nhpoly1305.ko\n',
    };
    const host: Host = {
      ...base,
      readText: (path) => (requested.push(path), Promise.resolve(files[path] ?? null)),
    };
    const { facts, warnings } = await withWarnings(probeKernelCrypto, host);
    expect(warnings).toEqual([]);
    expect(requested).toEqual(Object.keys(files));
    expect(facts?.xtsAes?.driver).toBe('xts(ecb(aes-fixed-time))');
    expect(facts?.xtsAesImplementation).toBe('generic');
    expect(facts?.adiantum).toBe('module');
  });

  it('warns instead of failing where there is no /proc/crypto', async () => {
    const host = hostReading({}, await hostWith({}));
    const { facts, warnings } = await withWarnings(probeKernelCrypto, host);
    expect(facts).toBeNull();
    expect(warnings.map((w) => w.code)).toEqual(['PLATFORM_LIMITED']);
  });
});

describe('runCipherBenchmark', () => {
  it('reports the generic kernel AES on a CPU with AES instructions, quoting the OpenSSL figure, and shows progress', async () => {
    const kdfNames = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512', 'argon2id'].map(
      (hash) => (hash === 'argon2id' ? 'linux-debian12-argon2id' : `linux-debian12-pbkdf2-${hash}`),
    );
    const base = await hostWith({
      cryptsetup: [
        replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512'),
        ...kdfNames.map((name) => replay('cryptsetup-benchmark', name)),
      ],
      openssl: OPENSSL_QUICK,
    });
    const procCrypto = readFixture('proc-crypto', 'x86-vm-debian12-aes-fixed-time');
    const host: Host = {
      ...base,
      readText: (path) => Promise.resolve(path === '/proc/crypto' ? procCrypto : null),
      // This machine's CPU flags include aes and vaes (grep -o -w aes /proc/cpuinfo); 2 logical CPUs.
      systemInfo: () =>
        Promise.resolve({
          cpu: { cores: 2 },
          cpuFlags: 'fpu vme sse2 aes avx2 vaes',
          mem: {},
          os: {},
          diskLayout: [],
        }),
    };
    const steps: string[] = [];
    const { facts, warnings } = await withWarnings(runCipherBenchmark, host, {
      quick: true,
      quickRevision: 1,
      onProgress: (step) => steps.push(step),
    });
    expect(facts.cpuHasAes).toBe(true);
    expect(facts.findings).toHaveLength(1);
    expect(facts.findings[0]).toMatchObject({
      id: 'kernel-aes-unaccelerated',
      evidence: {
        xtsAesDriver: 'xts(ecb(aes-fixed-time))',
        inferred: false,
        cpuHasAes: true,
        opensslAesXtsBytesPerSecond: 6245421056,
      },
    });
    expect(facts.kdfSpeed.pbkdf2).toHaveLength(4);
    expect(warnings.map((w) => w.code)).toEqual(['KERNEL_FEATURE_MISSING']);
    expect(steps).toHaveLength(1 + 6 + 6);
  });
});

/** The kernel drivers of this project's VM (/proc/crypto: xts(ecb(aes-fixed-time)), generic C AES). */
async function genericKernelCrypto() {
  const procCrypto = readFixture('proc-crypto', 'x86-vm-debian12-aes-fixed-time');
  const base = await hostWith({});
  const kernel = await probeKernelCrypto(
    createProbeContext({
      ...base,
      readText: (file) => Promise.resolve(file === '/proc/crypto' ? procCrypto : null),
    }),
  );
  expect(kernel?.xtsAesImplementation).toBe('generic');
  return kernel!;
}

/** A phase runner that records the phases run and skipped. */
function recordingPhases(): PhaseRunner & { started: string[]; skipped: string[] } {
  const started: string[] = [];
  const skipped: string[] = [];
  return {
    started,
    skipped,
    run: (id, _message, work) => {
      started.push(id);
      return work();
    },
    skip: (prefix) => {
      skipped.push(prefix);
    },
  };
}

describe('quick revision 5 (issues 24 and 28): OpenSSL AES only where it reaches the plan', () => {
  const OPENSSL_ARGS = (evp: string, ...extra: string[]) =>
    ['speed', '-mr', '-elapsed', '-evp', evp, '-seconds', '1', '-bytes', '4096', ...extra].join(' ');

  it('runs one aes-256-xts figure and chacha20 only when the kernel xts(aes) driver is generic', async () => {
    const kernelCrypto = await genericKernelCrypto();
    const host = await hostWith({
      cryptsetup: [replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512')],
      openssl: OPENSSL_QUICK,
    });
    const phases = recordingPhases();
    const options = { quick: true, logicalCpuCount: 2, kernelCrypto, phases } as const;
    const { facts } = await withWarnings(probeCipherSpeed, host, options);
    const openssl = (await fakes!.calls()).filter((call) => call.tool === 'openssl');
    expect(openssl.map((call) => call.argv.join(' '))).toEqual([
      OPENSSL_ARGS('aes-256-xts'),
      OPENSSL_ARGS('chacha20'),
    ]);
    // The plan's phases are the runs made: the ETA does not wait for runs that never come.
    expect(phases.started.filter((id) => id.startsWith('cipher:openssl:'))).toEqual(
      speedProbePhases(options)
        .map((phase) => phase.id)
        .filter((id) => id.startsWith('cipher:openssl:')),
    );
    // The kernel-aes-unaccelerated finding still quotes OpenSSL's one-core AES-256 figure.
    expect(facts.measurements.map((m) => [m.cipher, m.keyBits, m.encryptBytesPerSecond])).toEqual([
      ['aes-xts', 512, 6245421056],
      ['chacha20', 256, 5121826816],
    ]);
    expect(speedProbeReductions(options)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^OpenSSL AES: one aes-256-xts run on one core only/)]),
    );
    // Revision 4, replayed from a bundle, still runs the pairs whatever the driver.
    expect(
      speedProbePhases({ ...options, quickRevision: 4 }).filter((p) =>
        p.id.startsWith('cipher:openssl:aes-128-xts'),
      ),
    ).toHaveLength(3);
  });

  it('keeps the key-size pairs where the kernel driver uses the CPU AES instructions and AF_ALG is missing', async () => {
    const kernelCrypto = {
      ...(await genericKernelCrypto()),
      xtsAesImplementation: 'cpu-instructions' as const,
    };
    const host = await hostWith({
      cryptsetup: [replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-aes-xts-512')],
      openssl: OPENSSL_QUICK,
    });
    await withWarnings(probeCipherSpeed, host, { quick: true, logicalCpuCount: 2, kernelCrypto });
    const openssl = (await fakes!.calls()).filter((call) => call.tool === 'openssl');
    expect(openssl.map((call) => call.argv.join(' '))).toEqual([
      ...[1, 2, 3].flatMap(() => [OPENSSL_ARGS('aes-128-xts'), OPENSSL_ARGS('aes-256-xts')]),
      OPENSSL_ARGS('aes-256-xts', '-multi', '2'),
      OPENSSL_ARGS('aes-256-xts', '-decrypt'),
      OPENSSL_ARGS('chacha20'),
    ]);
  });

  it("skips the key-size pairs when cryptsetup measured the kernel's aes-xts at both key sizes", async () => {
    // The two aes-xts rows (with the first line and the column header) of a real `cryptsetup benchmark` on an
    // AES-NI laptop.
    const full = readFixture('cryptsetup-benchmark', 'x86-aesni-nvme-laptop-cryptsetup2.x-full').split('\n');
    const header = full.find((line) => line.includes('Algorithm'))!;
    const row = (keyBits: number) =>
      full.find((line) => line.includes(`aes-xts        ${String(keyBits)}b`))!;
    const kernelCrypto = {
      ...(await genericKernelCrypto()),
      xtsAesImplementation: 'cpu-instructions' as const,
    };
    const host = await hostWith({
      cryptsetup: [
        {
          args: ['benchmark', '-c', 'aes-xts', '-s', '512'],
          stdout: `${full[0]!}\n${header}\n${row(512)}\n`,
        },
        {
          args: ['benchmark', '-c', 'aes-xts', '-s', '256'],
          stdout: `${full[0]!}\n${header}\n${row(256)}\n`,
        },
        replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-xchacha12-adiantum'),
        replay('cryptsetup-benchmark', 'linux-no-af-alg-debian12-xchacha20-adiantum'),
      ],
      openssl: OPENSSL_QUICK,
    });
    const phases = recordingPhases();
    const { facts } = await withWarnings(probeCipherSpeed, host, {
      quick: true,
      logicalCpuCount: 2,
      kernelCrypto,
      phases,
    });
    expect(
      facts.measurements.filter((m) => m.source === 'cryptsetup').map((m) => [m.cipher, m.keyBits]),
    ).toEqual(
      expect.arrayContaining([
        ['aes-xts', 512],
        ['aes-xts', 256],
      ]),
    );
    const openssl = (await fakes!.calls()).filter((call) => call.tool === 'openssl');
    expect(openssl.map((call) => call.argv.join(' '))).toEqual([
      OPENSSL_ARGS('aes-256-xts'),
      OPENSSL_ARGS('aes-256-xts', '-multi', '2'),
      OPENSSL_ARGS('aes-256-xts', '-decrypt'),
      OPENSSL_ARGS('chacha20'),
    ]);
    // The planned pair runs are dropped from the schedule, so the ETA does not count them.
    expect(phases.skipped.filter((prefix) => prefix.startsWith('cipher:openssl:'))).toEqual([
      'cipher:openssl:aes-128-xts:encrypt:1',
      'cipher:openssl:aes-128-xts:encrypt:1:2',
      'cipher:openssl:aes-256-xts:encrypt:1:2',
      'cipher:openssl:aes-128-xts:encrypt:1:3',
      'cipher:openssl:aes-256-xts:encrypt:1:3',
    ]);
  });
});

/**
 * A host whose cryptsetup prints, for each argv, the next of the given real captures (fake tools answer one
 * argv with one output, so repeated runs of the same argv need a scripted runner).
 */
async function scriptedCryptsetup(outputs: Readonly<Record<string, readonly string[]>>) {
  const base = await hostWith({});
  const queues = new Map(Object.entries(outputs).map(([argv, list]) => [argv, [...list]]));
  const calls: string[] = [];
  const host: Host = {
    ...base,
    run: (spec) => {
      const argv = spec.args.join(' ');
      calls.push(argv);
      const stdout = queues.get(argv)?.shift();
      return Promise.resolve(
        stdout === undefined
          ? { exitCode: 127, stdout: '', stderr: `no capture left for ${argv}`, durationMs: 1 }
          : { exitCode: 0, stdout, stderr: '', durationMs: 1000 },
      );
    },
  };
  return { host, calls };
}

describe('repeated PBKDF2 runs (issue 24 item 4)', () => {
  const pbkdf2 = (hash: string) => `benchmark --pbkdf pbkdf2 --hash ${hash}`;
  // Three runs of each hash captured back to back on this project's 2-core VM while other work ran.
  const runs = (hash: string) =>
    [1, 2, 3].map((run) =>
      readFixture('cryptsetup-benchmark', `linux-debian12-pbkdf2-${hash}-run${String(run)}`),
    );

  it('quick revision 5 runs sha512 three times, interleaved with the others, and takes the median with every run kept', async () => {
    const { host, calls } = await scriptedCryptsetup({
      [pbkdf2('sha256')]: [readFixture('cryptsetup-benchmark', 'linux-debian12-pbkdf2-sha256')],
      [pbkdf2('sha512')]: runs('sha512'),
      [pbkdf2('whirlpool')]: [readFixture('cryptsetup-benchmark', 'linux-debian12-pbkdf2-whirlpool')],
      'benchmark --pbkdf argon2id --iter-time 1000': [
        readFixture('cryptsetup-benchmark', 'linux-debian12-argon2id-iter-time-1000'),
      ],
    });
    const phases = recordingPhases();
    const { facts, warnings } = await withWarnings(probeKdfSpeed, host, {
      quick: true,
      quickRevision: 5,
      phases,
    });
    expect(warnings).toEqual([]);
    expect(calls).toEqual([
      pbkdf2('sha256'),
      pbkdf2('sha512'),
      pbkdf2('whirlpool'),
      pbkdf2('sha512'),
      pbkdf2('sha512'),
      'benchmark --pbkdf argon2id --iter-time 1000',
    ]);
    expect(phases.started).toEqual(
      speedProbePhases({ quick: true, quickRevision: 5 })
        .filter((p) => p.id.startsWith('kdf:'))
        .map((p) => p.id),
    );
    // Runs 864448, 1199743, 1108431: the middle one, not the last.
    expect(facts.pbkdf2).toEqual([
      { hash: 'sha256', iterationsPerSecond: 4161015, derivedKeyBits: 256 },
      {
        hash: 'sha512',
        iterationsPerSecond: 1108431,
        derivedKeyBits: 256,
        iterationsPerSecondSamples: [864448, 1199743, 1108431],
        // (1199743 − 864448) / 1108431 = 30.2 %
        iterationsPerSecondSpreadPercent: 30.2,
      },
      { hash: 'whirlpool', iterationsPerSecond: 492289, derivedKeyBits: 256 },
    ]);
    expect(speedProbeReductions({ quick: true, quickRevision: 5 })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PBKDF2: .*sha512: 3 interleaved runs each \(median\)/),
      ]),
    );
  });

  it('quick revision 6 runs every hash a rule reads and argon2id more than once, with every run kept', async () => {
    const argon2 = 'benchmark --pbkdf argon2id --iter-time 500';
    const { host, calls } = await scriptedCryptsetup({
      [pbkdf2('sha256')]: runs('sha256'),
      [pbkdf2('sha512')]: runs('sha512'),
      [pbkdf2('whirlpool')]: runs('whirlpool'),
      [argon2]: [1, 2].map((run) =>
        readFixture('cryptsetup-benchmark', `linux-debian12-argon2id-iter-time-500-run${String(run)}`),
      ),
    });
    const phases = recordingPhases();
    const { facts, warnings } = await withWarnings(probeKdfSpeed, host, { quick: true, phases });
    expect(warnings).toEqual([]);
    // sha512 (VeraCrypt's default PRF) three times, sha256 and whirlpool twice, round by round.
    const round = ['sha256', 'sha512', 'whirlpool'].map(pbkdf2);
    expect(calls).toEqual([...round, ...round, pbkdf2('sha512'), argon2, argon2]);
    expect(phases.started).toEqual(
      speedProbePhases({ quick: true })
        .filter((p) => p.id.startsWith('kdf:'))
        .map((p) => p.id),
    );
    // Whirlpool runs 558347 and 456299: the median 507323, spread (558347 − 456299) / 507323 = 20.1 %.
    expect(facts.pbkdf2.find((row) => row.hash === 'whirlpool')).toEqual({
      hash: 'whirlpool',
      iterationsPerSecond: 507323,
      derivedKeyBits: 256,
      iterationsPerSecondSamples: [558347, 456299],
      iterationsPerSecondSpreadPercent: 20.1,
    });
    expect(facts.pbkdf2.map((row) => [row.hash, row.iterationsPerSecondSamples?.length])).toEqual([
      ['sha256', 2],
      ['sha512', 3],
      ['whirlpool', 2],
    ]);
    expect(facts.argon2).toHaveLength(2);
    expect(facts.argon2.every((row) => row.requestedDurationMs === 500)).toBe(true);
    expect(speedProbeReductions({ quick: true })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^PBKDF2: sha256, sha512, whirlpool only .*sha512: 3 interleaved runs each \(median\), the others 2 interleaved runs each/,
        ),
        expect.stringMatching(/^argon2id: .*500 ms 2 times .*median/),
      ]),
    );
  });

  it('full mode runs every hash three times, round by round, and each hash follows its own median', async () => {
    const once = (hash: string) =>
      Array.from({ length: 3 }, () => readFixture('cryptsetup-benchmark', `linux-debian12-pbkdf2-${hash}`));
    const { host, calls } = await scriptedCryptsetup({
      [pbkdf2('sha256')]: runs('sha256'),
      [pbkdf2('sha512')]: runs('sha512'),
      ...Object.fromEntries(
        ['whirlpool', 'blake2s-256', 'streebog512'].map((hash) => [pbkdf2(hash), once(hash)]),
      ),
      'benchmark --pbkdf argon2id': Array.from({ length: 3 }, () =>
        readFixture('cryptsetup-benchmark', 'linux-debian12-argon2id'),
      ),
    });
    const { facts } = await withWarnings(probeKdfSpeed, host, { quick: false });
    const hashes = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512'];
    expect(calls.filter((argv) => argv.includes('pbkdf2'))).toEqual([
      ...hashes.map(pbkdf2),
      ...hashes.map(pbkdf2),
      ...hashes.map(pbkdf2),
    ]);
    expect(
      speedProbePhases({ quick: false })
        .filter((p) => p.id.startsWith('kdf:pbkdf2:'))
        .map((p) => p.id),
    ).toEqual([
      ...hashes.map((hash) => `kdf:pbkdf2:${hash}`),
      ...hashes.map((hash) => `kdf:pbkdf2:${hash}:2`),
      ...hashes.map((hash) => `kdf:pbkdf2:${hash}:3`),
    ]);
    // sha256 runs 2803679, 2833989, 2475976: the median; Streebog stays unmeasured (N/A each time).
    expect(facts.pbkdf2.find((row) => row.hash === 'sha256')).toEqual({
      hash: 'sha256',
      iterationsPerSecond: 2803679,
      derivedKeyBits: 256,
      iterationsPerSecondSamples: [2803679, 2833989, 2475976],
      iterationsPerSecondSpreadPercent: 12.8,
    });
    expect(facts.unmeasured.map((row) => row.hash)).toEqual(['streebog512']);
  });
});

describe('runCipherBenchmark inside an assessment', () => {
  it('does not read /proc/crypto again when the assessment has read it', async () => {
    const kernelCrypto = await genericKernelCrypto();
    const base = await hostWith({});
    const read: string[] = [];
    const host: Host = {
      ...base,
      readText: (file) => {
        read.push(file);
        return Promise.resolve(null);
      },
    };
    const { facts } = await withWarnings(
      runCipherBenchmark,
      host,
      { quick: true },
      { kernelCrypto, machine: null },
    );
    expect(read).not.toContain('/proc/crypto');
    expect(facts.kernelCrypto).toBe(kernelCrypto);
  });
});
