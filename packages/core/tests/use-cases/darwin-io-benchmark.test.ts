import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import type { IoBenchmark } from '../../src/domain/io-benchmark.js';
import type { PlatformStorage } from '../../src/domain/platform-storage.js';
import type { StorageModel } from '../../src/domain/storage-model.js';
import { modelOfLegacyPlatformStorage } from '../../src/analyses/legacy-platform-storage.js';
import { cancelled } from '../../src/errors.js';
import { parseHdiutilIsEncrypted } from '../../src/parsers/hdiutil/parse-hdiutil-isencrypted.js';
import type { CommandSpec, Host } from '../../src/ports.js';
import { recommendMacosEncryption as recommendFromModel } from '../../src/targets/apfs/plan.js';
import { defaultTargetFor, isEncryptedVolumeOf } from '../../src/targets/registry.js';
import { storageModelOfFacts } from '../../src/rules/storage-facts.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { cleanupLeftovers } from '../../src/use-cases/benchmark/cleanup-leftovers.js';
import {
  chooseDarwinBenchmarkVolume,
  runDarwinIoBenchmark,
} from '../../src/use-cases/benchmark/run-darwin-io-benchmark.js';
import { runPlatformIoBenchmark } from '../../src/use-cases/benchmark/run-platform-io-benchmark.js';
import { fixture } from '../support/fixtures.js';

const TEMP = '/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T';
const DATA_VOLUME = fixture('diskutil/info-plist-intel-catalina-disk1s1-data-filevault/stdout.plist');
const SYSTEM_VOLUME = fixture('diskutil/info-plist-intel-catalina-disk1s5-system-filevault/stdout.plist');
const EXTERNAL_VOLUME = fixture('diskutil/info-plist-external-usb-hdd-hfsplus-5tb/stdout.plist');
const FIO_READ = fixture('fio/macos-interrupted-sigint-prefix-fio3.34/output.json');
const FIO_WRITE = fixture('fio/macos-posixaio-randwrite-1k-qd8-direct-fio3.39/output.json');
const DATA = { volume: 'disk1s1', mountPoint: '/System/Volumes/Data', workParent: TEMP };

interface MacHostOptions {
  readonly tools?: readonly string[];
  readonly diskutil?: Readonly<Record<string, string>>;
  /** Answers a command instead of the default (return undefined for the default). */
  readonly answer?: (spec: CommandSpec, calls: number) => { exitCode: number; stdout: string } | undefined;
  readonly isencrypted?: string;
  readonly processAlive?: boolean;
  readonly files?: Readonly<Record<string, string>>;
  readonly listings?: Readonly<Record<string, string[]>>;
}

/** A Mac that answers hdiutil, diskutil and fio as documented, and files every command and path it is given. */
function macHost(options: MacHostOptions = {}) {
  const runs: CommandSpec[] = [];
  const files = new Map<string, string>(Object.entries(options.files ?? {}));
  const tools = options.tools ?? ['fio', 'hdiutil', 'diskutil'];
  const host: Host = {
    platform: 'darwin',
    cwd: '/Users/tester',
    privileged: false,
    run: (spec, signal) => {
      runs.push(spec);
      if (signal?.aborted === true) {
        return Promise.reject(cancelled('fio'));
      }
      const answered = options.answer?.(spec, runs.length);
      if (answered !== undefined) {
        return Promise.resolve({ ...answered, stderr: '', durationMs: 0 });
      }
      let stdout = '';
      if (spec.tool === 'diskutil') {
        stdout = options.diskutil?.[spec.args.at(-1)!] ?? '';
      } else if (spec.tool === 'hdiutil' && spec.args[0] === 'create') {
        files.set(spec.args.at(-1)!, 'image');
      } else if (spec.tool === 'hdiutil' && spec.args[0] === 'isencrypted') {
        stdout = options.isencrypted ?? 'encrypted: YES\n';
      } else if (spec.tool === 'fio') {
        const output = spec.args.find((arg) => arg.startsWith('--output='))!.slice('--output='.length);
        files.set(output, spec.args.some((arg) => /^--rw=.*write$/.test(arg)) ? FIO_WRITE : FIO_READ);
      }
      return Promise.resolve({ exitCode: 0, stdout, stderr: '', durationMs: 0 });
    },
    readText: (path) => Promise.resolve(files.get(path) ?? null),
    listDir: (path) => Promise.resolve(options.listings?.[path] ?? null),
    realPath: () => Promise.resolve(null),
    stat: (path) =>
      Promise.resolve(
        files.has(path)
          ? {
              kind: files.get(path) === 'directory' ? 'directory' : 'file',
              deviceNumber: null,
              containingDeviceNumber: '1:4',
              sizeBytes: 0,
              readable: true,
            }
          : null,
      ),
    whichTool: (tool) => Promise.resolve(tools.includes(tool) ? `/usr/local/bin/${tool}` : null),
    systemInfo: () => Promise.reject(new Error('not used')),
    effects: {
      runIdentity: () =>
        Promise.resolve({
          pid: 77,
          nonce: 'cd',
          tempDirectory: TEMP,
          stateDirectory: `${TEMP}/encplan`,
          startedAt: '2026-11-26T06:00:00.000Z',
        }),
      monotonicMs: () => Promise.resolve(0),
      makeDirectory: (path) => Promise.resolve(void files.set(path, 'directory')),
      createFile: (path) => Promise.resolve(void files.set(path, 'file')),
      writeTextAtomic: (path, text) => Promise.resolve(void files.set(path, text)),
      remove: (path) => Promise.resolve(void files.delete(path)),
      freeBytes: () => Promise.resolve(2 ** 40),
      directIoAllowed: () => Promise.resolve(true),
      processAlive: () => Promise.resolve(options.processAlive ?? true),
    },
  };
  return { host, runs, files };
}

const WORK = `${TEMP}/encplan-bench-77-cd`;

describe('runDarwinIoBenchmark on a recording Mac', () => {
  it('measures plain then encrypted images with the exact argv, the passphrase on stdin only, and removes all', async () => {
    const { host, runs, files } = macHost();
    const events: string[] = [];
    const { result, warnings } = await runDarwinIoBenchmark(host, {
      volume: DATA,
      mode: 'quick',
      onProgress: (event) => events.push(event.phase),
    });
    const hdiutil = runs.filter((spec) => spec.tool === 'hdiutil');
    expect(hdiutil.map((spec) => spec.args)).toEqual([
      ['create', '-size', '192m', '-fs', 'APFS', '-volname', 'encplan-bench-77-plain', `${WORK}/plain.dmg`],
      ['attach', '-nobrowse', '-owners', 'on', '-mountpoint', `${WORK}/plain-volume`, `${WORK}/plain.dmg`],
      [
        'create',
        '-size',
        '192m',
        '-fs',
        'APFS',
        '-volname',
        'encplan-bench-77-apfs',
        '-encryption',
        'AES-256',
        '-stdinpass',
        `${WORK}/apfs.dmg`,
      ],
      ['isencrypted', `${WORK}/apfs.dmg`],
      [
        'attach',
        '-nobrowse',
        '-owners',
        'on',
        '-mountpoint',
        `${WORK}/apfs-volume`,
        '-stdinpass',
        `${WORK}/apfs.dmg`,
      ],
      ['detach', `${WORK}/apfs-volume`],
      ['detach', `${WORK}/plain-volume`],
    ]);
    // One random passphrase, NUL-terminated (hdiutil(1) -stdinpass), to create and attach; in no argv at all.
    const secret = hdiutil[2]!.stdin!;
    expect(secret).toMatch(/^[^\0\n]{32,}\0$/);
    expect(hdiutil[4]!.stdin).toBe(secret);
    expect(hdiutil.filter((spec) => spec.stdin !== undefined)).toHaveLength(2);
    expect(runs.flatMap((spec) => spec.args).some((arg) => arg.includes(secret.slice(0, -1)))).toBe(false);
    const fio = runs.filter((spec) => spec.tool === 'fio');
    expect(fio).toHaveLength(8);
    expect(fio.every((spec) => spec.args.includes('--ioengine=posixaio'))).toBe(true);
    expect(
      fio.slice(0, 4).every((spec) => spec.args.includes(`--filename=${WORK}/plain-volume/encplan.fio`)),
    ).toBe(true);
    expect(
      fio.slice(4).every((spec) => spec.args.includes(`--filename=${WORK}/apfs-volume/encplan.fio`)),
    ).toBe(true);
    expect(result).toMatchObject({ target: '/System/Volumes/Data', destructive: false, skipped: [] });
    expect(result.plain).toMatchObject({ backend: 'plain', ioEngine: 'posixaio', directIo: true });
    expect(result.encrypted.map((target) => [target.backend, target.verification])).toEqual([
      [
        'apfs',
        { method: `hdiutil isencrypted ${WORK}/apfs.dmg`, identity: `${WORK}/apfs.dmg`, cipher: 'AES-256' },
      ],
    ]);
    expect(result.overhead.map((row) => row.profileId)).toEqual(
      result.plain.profiles.map((measured) => measured.profile.id),
    );
    expect(result.settings?.quickRevision).not.toBeNull();
    expect(warnings).toEqual([]);
    expect(events).toContain('measure');
    expect(events.at(-1)).toBe('done');
    expect([...files.keys()].filter((path) => path.startsWith(WORK))).toEqual([]);
    expect([...files.keys()].filter((path) => path.startsWith(`${TEMP}/encplan/`))).toEqual([]);
  });

  it('detaches and deletes both images when fio fails on the encrypted one', async () => {
    const { host, runs, files } = macHost({
      answer: (spec) =>
        spec.tool === 'fio' && spec.args.some((arg) => arg.includes('/apfs-volume/'))
          ? { exitCode: 1, stdout: '' }
          : undefined,
    });
    await expect(runDarwinIoBenchmark(host, { volume: DATA, mode: 'quick' })).rejects.toMatchObject({
      code: 'TOOL_FAILED',
    });
    expect(runs.filter((spec) => spec.args[0] === 'detach').map((spec) => spec.args[1])).toEqual([
      `${WORK}/apfs-volume`,
      `${WORK}/plain-volume`,
    ]);
    expect([...files.keys()].filter((path) => path.startsWith(WORK))).toEqual([]);
  });

  it('never attaches or measures an image hdiutil does not call encrypted', async () => {
    const { host, runs, files } = macHost({ isencrypted: 'encrypted: NO\n' });
    await expect(runDarwinIoBenchmark(host, { volume: DATA, mode: 'quick' })).rejects.toMatchObject({
      code: 'TOOL_OUTPUT_UNRECOGNIZED',
    });
    expect(runs.some((spec) => spec.args.includes(`${WORK}/apfs-volume`) && spec.args[0] === 'attach')).toBe(
      false,
    );
    expect(runs.filter((spec) => spec.tool === 'fio')).toHaveLength(4);
    expect([...files.keys()].filter((path) => path.startsWith(WORK))).toEqual([]);
  });

  it('stops at an abort with CANCELLED and removes what it made', async () => {
    const controller = new AbortController();
    const { host, files } = macHost({
      answer: (spec, calls) => {
        if (spec.tool === 'fio' && calls > 3) {
          controller.abort();
        }
        return undefined;
      },
    });
    await expect(
      runDarwinIoBenchmark(host, { volume: DATA, mode: 'quick', signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect([...files.keys()].filter((path) => path.startsWith(WORK))).toEqual([]);
  });

  it('says how to get fio when it is missing, before making anything', async () => {
    const { host, runs, files } = macHost({ tools: ['hdiutil', 'diskutil'] });
    await expect(runDarwinIoBenchmark(host, { volume: DATA, mode: 'quick' })).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      hint: 'Install it: brew install fio.',
    });
    expect(runs).toEqual([]);
    expect(files.size).toBe(0);
  });

  it('replays the composed bundle: the same run from the recorded captures', async () => {
    // A bundle carries what a replay host needs: platform, cwd, privileges and the captures.
    const host = createReplayHost(
      parseBundle(
        JSON.parse(fixture('bundles/darwin-fio-apfs-image-benchmark-composed/bundle.json')) as unknown,
      ),
    );
    const { result, cleanup } = await runDarwinIoBenchmark(host, { volume: DATA, mode: 'quick' });
    const write = result.overhead.find((row) => row.profileId === 'seq1m-q8t1-write');
    // The Crucial USB SSD capture (plain side) against the macOS posixaio capture (encrypted side).
    expect(write?.plainBytesPerSecond).toBe(29_217_251);
    expect(write?.encryptedBytesPerSecond).toBe(20_092_474);
    expect(cleanup.map((outcome) => [outcome.resource.kind, outcome.outcome])).toEqual([
      ['file', 'absent'], // fio's test file: recorded, gone with the image it was in
      ['disk-image', 'removed'], // the encrypted image: detached, its mount point and file deleted
      ['directory', 'removed'],
      ['file', 'removed'],
      ['file', 'absent'],
      ['disk-image', 'removed'], // then the plain one, and the run's directory
      ['directory', 'removed'],
      ['file', 'removed'],
      ['directory', 'removed'],
    ]);
  });
});

/** The storage model of platform facts in the pre-1.4 shape (the legacy adapter), with `partial` over the defaults. */
function storageWith(partial: Partial<PlatformStorage>): StorageModel {
  return modelOfLegacyPlatformStorage({
    platform: 'darwin',
    disk: {
      identifier: 'disk0',
      model: null,
      bus: null,
      internal: true,
      medium: 'ssd',
      sizeBytes: null,
      logicalSectorBytes: null,
      partitionStyle: null,
      source: 'diskutil info',
    },
    partitions: [],
    encryption: [],
    fileVault: null,
    trim: { driveSupports: null, osSends: null, source: null },
    health: {
      verdict: 'unknown',
      source: null,
      statusOnly: true,
      status: null,
      wearPercent: null,
      temperatureCelsius: null,
      powerOnHours: null,
      mediaErrors: null,
      note: '',
    },
    cpu: { aes: null, appleSilicon: false, source: null },
    ...partial,
  });
}

function volumeEntry(volume: string, roles: string[]): PlatformStorage['encryption'][number] {
  return {
    volume,
    name: null,
    format: 'apfs-unencrypted',
    method: null,
    keyBits: null,
    hardware: null,
    conversion: null,
    percentEncrypted: null,
    protectionOn: null,
    roles,
    source: 'diskutil apfs list',
  };
}

describe('encplan benchmark io DIR on a Mac (runPlatformIoBenchmark)', () => {
  const request = {
    backends: 'auto' as const,
    mode: 'quick' as const,
    sweep: false,
    destructive: { allowDestructive: false, typedDevice: null, yes: false },
    cipherBytesPerSecondPerCore: null,
  };

  it('measures disk images in the directory given, not loop devices', async () => {
    const { host, runs } = macHost({ files: { '/Volumes/External': 'directory' } });
    const { result } = await runPlatformIoBenchmark(host, { ...request, target: '/Volumes/External' });
    expect(result.target).toBe('/Volumes/External');
    expect(result.encrypted.map((target) => target.backend)).toEqual(['apfs']);
    const created = runs.filter((spec) => spec.tool === 'hdiutil' && spec.args[0] === 'create');
    expect(created.map((spec) => spec.args.at(-1))).toEqual([
      '/Volumes/External/encplan-bench-77-cd/plain.dmg',
      '/Volumes/External/encplan-bench-77-cd/apfs.dmg',
    ]);
    expect(runs.some((spec) => spec.tool === 'losetup' || spec.tool === 'mount')).toBe(false);
  });

  it('refuses what only Linux measures, before running anything', async () => {
    const { host, runs } = macHost({ files: { '/Volumes/External': 'directory', '/dev/disk4': 'file' } });
    await expect(
      runPlatformIoBenchmark(host, { ...request, target: '/Volumes/External', backends: ['luks2'] }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('luks2') });
    await expect(runPlatformIoBenchmark(host, { ...request, target: '/dev/disk4' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(runPlatformIoBenchmark(host, { ...request, target: '/nowhere' })).rejects.toMatchObject({
      code: 'DEVICE_NOT_FOUND',
    });
    expect(runs).toEqual([]);
  });
});

describe('chooseDarwinBenchmarkVolume', () => {
  it('skips the read-only system volume and puts the images in the temp dir of the Data volume', async () => {
    const { host, runs } = macHost({ diskutil: { disk1s5: SYSTEM_VOLUME, disk1s1: DATA_VOLUME } });
    const storage = storageWith({
      encryption: [
        volumeEntry('disk1s5', []),
        volumeEntry('disk1s1', []),
        volumeEntry('disk1s2', ['Preboot']),
      ],
    });
    expect(await chooseDarwinBenchmarkVolume(host, storage)).toEqual(DATA);
    expect(runs.map((spec) => spec.args)).toEqual([
      ['info', '-plist', 'disk1s5'],
      ['info', '-plist', 'disk1s1'],
    ]);
  });

  it('asks the Data role first, never Apple’s own volumes', async () => {
    const { host, runs } = macHost({ diskutil: { disk1s1: DATA_VOLUME } });
    const storage = storageWith({
      encryption: [volumeEntry('disk1s5', ['System']), volumeEntry('disk1s1', ['Data'])],
    });
    expect(await chooseDarwinBenchmarkVolume(host, storage)).toEqual(DATA);
    expect(runs.map((spec) => spec.args.at(-1))).toEqual(['disk1s1']);
  });

  it('uses the root of a mounted external volume', async () => {
    const { host } = macHost({ diskutil: { disk11s2: EXTERNAL_VOLUME } });
    const storage = storageWith({
      partitions: [
        {
          identifier: 'disk11s2',
          type: 'Apple_HFS',
          sizeBytes: null,
          label: 'HDD',
          mountPoint: '/Volumes/HDD',
        },
      ],
    });
    expect(await chooseDarwinBenchmarkVolume(host, storage)).toEqual({
      volume: 'disk11s2',
      mountPoint: '/Volumes/HDD',
      workParent: '/Volumes/HDD',
    });
  });

  it('says why when no volume is mounted and writable', async () => {
    const { host } = macHost({ diskutil: { disk1s5: SYSTEM_VOLUME } });
    expect(
      await chooseDarwinBenchmarkVolume(host, storageWith({ encryption: [volumeEntry('disk1s5', [])] })),
    ).toEqual({ reason: 'no volume of disk0 is mounted and writable (disk1s5: read-only)' });
    expect(await chooseDarwinBenchmarkVolume(host, storageWith({}))).toMatchObject({
      reason: expect.stringContaining('disk0 has no APFS volume') as string,
    });
  });
});

describe('parseHdiutilIsEncrypted (the documented form; no full capture exists)', () => {
  it('reads YES and NO and refuses anything else', () => {
    expect(parseHdiutilIsEncrypted('encrypted: YES\nblocksize: 512\n').encrypted).toBe(true);
    expect(parseHdiutilIsEncrypted('encrypted: NO\n').encrypted).toBe(false);
    expect(() => parseHdiutilIsEncrypted('hdiutil: isencrypted failed - No such file\n')).toThrow(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }) as Error,
    );
  });
});

describe('encplan cleanup of a killed macOS run', () => {
  it('detaches its image (forcing a busy one) and deletes the image file, from the state file', async () => {
    const state = {
      pid: 66,
      startedAt: '2026-11-26T05:00:00.000Z',
      resources: [
        { kind: 'directory', path: '/Volumes/HDD/encplan-bench-66-ab' },
        { kind: 'file', path: '/Volumes/HDD/encplan-bench-66-ab/apfs.dmg' },
        { kind: 'directory', path: '/Volumes/HDD/encplan-bench-66-ab/apfs-volume' },
        { kind: 'disk-image', mountPoint: '/Volumes/HDD/encplan-bench-66-ab/apfs-volume' },
      ],
    };
    const { host, runs, files } = macHost({
      processAlive: false,
      listings: { [`${TEMP}/encplan`]: ['66-1.json'] },
      files: {
        [`${TEMP}/encplan/66-1.json`]: JSON.stringify(state),
        '/Volumes/HDD/encplan-bench-66-ab': 'directory',
        '/Volumes/HDD/encplan-bench-66-ab/apfs.dmg': 'image',
        '/Volumes/HDD/encplan-bench-66-ab/apfs-volume': 'directory',
      },
      answer: (spec) =>
        spec.tool === 'hdiutil' && !spec.args.includes('-force') ? { exitCode: 16, stdout: '' } : undefined,
    });
    const report = await cleanupLeftovers(host);
    expect(runs.filter((spec) => spec.tool === 'hdiutil').map((spec) => spec.args)).toEqual([
      ['detach', '/Volumes/HDD/encplan-bench-66-ab/apfs-volume'],
      ['detach', '/Volumes/HDD/encplan-bench-66-ab/apfs-volume', '-force'],
    ]);
    expect(report.outcomes.map((outcome) => [outcome.resource.kind, outcome.outcome])).toEqual([
      ['disk-image', 'removed'],
      ['directory', 'removed'],
      ['file', 'removed'],
      ['directory', 'removed'],
    ]);
    expect([...files.keys()]).toEqual([]);
  });
});

describe('macos-encryption-cost with a measurement', () => {
  const measured = (read: number, write: number): Partial<IoBenchmark> => ({
    overhead: [
      { direction: 'read', ratio: read },
      { direction: 'write', ratio: write },
    ].map(({ direction, ratio }) => ({
      profileId: `seq1m-q8t1-${direction}`,
      profileLabel: 'SEQ1M Q8T1',
      direction: direction as 'read' | 'write',
      backend: 'apfs' as const,
      variant: 'apfs',
      plainBytesPerSecond: 100,
      encryptedBytesPerSecond: Math.round(100 * ratio),
      throughputRatio: ratio,
      plainCpuPercent: 1,
      encryptedCpuPercent: 2,
      cpuPerByteRatio: null,
      bound: 'undetermined' as const,
      boundReason: '',
    })),
  });
  /** The rule on the storage model the plan builds from these (deprecated-shape) platform facts. */
  const recommendMacosEncryption = (
    storage: PlanFacts['platformStorage'],
    benchmark: Parameters<typeof recommendFromModel>[1] = null,
  ) =>
    recommendFromModel(storageModelOfFacts({ platformStorage: storage })!, benchmark, (format) =>
      isEncryptedVolumeOf(defaultTargetFor('darwin'), format),
    );
  const cost = (result: ReturnType<typeof recommendMacosEncryption>) =>
    result.recommendations.find((item) => item.ruleId === 'macos-encryption-cost')!;

  it('Apple-silicon internal SSD: still no measurable cost, the image named as the software path FileVault skips', () => {
    const storage = { cpu: { appleSilicon: true }, disk: { internal: true } };
    const result = cost(recommendMacosEncryption(storage, measured(0.93, 0.71)));
    expect(result.value).toBe('no measurable cost');
    expect(result.reason).toContain('read at 93 % and wrote at 71 %');
    expect(result.reason).toContain('an upper bound that FileVault on this SSD does not pay');
    expect(result.evidence.slice(0, 2).map((item) => [item.fact, item.value])).toEqual([
      ['apfs image read ÷ plain', 0.93],
      ['apfs image write ÷ plain', 0.71],
    ]);
  });

  it('external drive: a measured cost that cites the figures as an upper bound', () => {
    const storage = { cpu: { appleSilicon: true }, disk: { internal: false } };
    const result = cost(recommendMacosEncryption(storage, measured(0.95, 0.8)));
    expect(result.value).toBe('measured cost');
    expect(result.reason).toMatch(/Measured here \(SEQ1M Q8T1\): .* read at 95 % and wrote at 80 %/);
    expect(result.reason).toContain('upper bound of encrypting the volume itself');
    expect(result.confidence).toBe('high');
    // Without a measurement the rule says what to expect and where it comes from.
    expect(cost(recommendMacosEncryption(storage)).reason).not.toContain('Measured here');
  });
});
