import { describe, expect, it } from 'vitest';
import type { CommandOutput, CommandSpec, Host, HostEffects } from '../../src/ports.js';
import { runWindowsIoBenchmark } from '../../src/use-cases/benchmark/run-windows-io-benchmark.js';
import { fixture } from '../support/fixtures.js';

/** A real DiskSpd text result, served for every DiskSpd run. */
const DISKSPD = fixture(
  'diskspd/win10-1903-container-i7-6700-micron-m600-sata-ssd-4k-rand-5050-L/stdout.txt',
);
const VERACRYPT = 'C:\\Program Files\\VeraCrypt\\VeraCrypt.exe';

/**
 * A Windows machine as the benchmark sees it: DiskSpd and (optionally) VeraCrypt installed, BitLocker that
 * finishes encrypting, Z: free. It records every command and file operation; `volumeAnswer` is what Get-Volume
 * prints for the VeraCrypt letter once mounted.
 */
class FakeWindows implements Host {
  readonly platform = 'win32';
  readonly cwd = 'C:\\';
  readonly privileged = true;
  readonly commands: CommandSpec[] = [];
  readonly created = new Map<string, Parameters<HostEffects['createFile']>[1]>();
  readonly existing = new Set<string>();
  volumeAnswer = '{"DriveLetter":"Z","FileSystem":"NTFS","Size":335544320}';

  constructor(private readonly veracryptInstalled: boolean) {}

  run(spec: CommandSpec): Promise<CommandOutput> {
    this.commands.push(spec);
    const script = spec.tool === 'powershell' ? (spec.args[3] ?? '') : '';
    let stdout = '';
    if (spec.tool === 'diskspd') {
      stdout = DISKSPD;
    } else if (script.includes('Enable-BitLocker')) {
      stdout = '{"MountPoint":"E:","VolumeStatus":"FullyEncrypted","EncryptionMethod":"XtsAes256"}';
    } else if (script.includes('Get-PSDrive')) {
      stdout = 'Z\r\n';
    } else if (script.includes("Get-Volume -DriveLetter 'Z'")) {
      stdout = this.existing.has('Z:\\') ? this.volumeAnswer : '';
    } else if (spec.tool === 'veracrypt' && spec.args[0] === '/volume') {
      this.existing.add('Z:\\');
    } else if (spec.tool === 'veracrypt' && spec.args[0] === '/dismount') {
      this.existing.delete('Z:\\');
    }
    return Promise.resolve({ exitCode: 0, stdout, stderr: '', durationMs: 0 });
  }

  readText = (): Promise<null> => Promise.resolve(null);
  listDir = (): Promise<null> => Promise.resolve(null);
  realPath = (): Promise<null> => Promise.resolve(null);
  stat: Host['stat'] = (path) =>
    Promise.resolve(
      this.existing.has(path)
        ? { kind: 'file', deviceNumber: null, containingDeviceNumber: '0:0', sizeBytes: 0, readable: true }
        : null,
    );
  whichTool: Host['whichTool'] = (tool) =>
    Promise.resolve(
      tool === 'diskspd'
        ? 'C:\\Tools\\diskspd.exe'
        : tool === 'veracrypt' && this.veracryptInstalled
          ? VERACRYPT
          : null,
    );
  systemInfo: Host['systemInfo'] = () => Promise.reject(new Error('not asked'));

  readonly effects: HostEffects = {
    runIdentity: () =>
      Promise.resolve({
        pid: 42,
        nonce: 'cd',
        tempDirectory: 'C:\\Users\\Jane Doe\\AppData\\Local\\Temp',
        stateDirectory: 'C:\\Users\\Jane Doe\\AppData\\Local\\Temp\\encplan-state',
        startedAt: '2026-11-26T07:00:00.000Z',
      }),
    monotonicMs: () => Promise.resolve(0),
    makeDirectory: (path) => this.add(path),
    createFile: (path, options) => {
      this.created.set(path, options);
      return this.add(path);
    },
    writeTextAtomic: (path) => this.add(path),
    remove: (path) => Promise.resolve(void this.existing.delete(path)),
    freeBytes: () => Promise.resolve(2 ** 40),
    directIoAllowed: () => Promise.resolve(true),
    processAlive: () => Promise.resolve(true),
  };

  private add(path: string): Promise<void> {
    this.existing.add(path);
    return Promise.resolve();
  }
}

/** Every argument of every command, PowerShell scripts included. */
function everyArgument(host: FakeWindows): string {
  return host.commands.flatMap((spec) => [spec.tool, ...spec.args]).join('\n');
}

describe('runWindowsIoBenchmark with VeraCrypt installed', () => {
  it('measures plain, BitLocker and a VeraCrypt container keyed by a private keyfile, then removes all of it', async () => {
    const host = new FakeWindows(true);
    const { result, cleanup } = await runWindowsIoBenchmark(host, { target: 'D:\\', mode: 'quick' });

    expect(result.encrypted.map((target) => [target.backend, target.variant])).toEqual([
      ['bitlocker', 'BitLocker XTS-AES 256 (VHDX)'],
      ['veracrypt', 'VeraCrypt AES, SHA-512 (file container)'],
    ]);
    expect(result.encrypted[1]?.verification).toEqual({
      method: 'VeraCrypt.exe /volume, Get-Volume -DriveLetter Z',
      identity: 'Z:',
      cipher: 'AES',
    });
    expect(result.skipped).toEqual([]);
    // Each encrypted target has its own overhead rows against the same plain run.
    expect(result.overhead.map((row) => row.backend)).toEqual([
      ...Array<string>(8).fill('bitlocker'),
      ...Array<string>(8).fill('veracrypt'),
    ]);

    // The keyfile: 64 random bytes, owner-only, in the user's temporary directory, not on the target drive.
    const keyfile = 'C:\\Users\\Jane Doe\\AppData\\Local\\Temp\\encplan-bench-42-cd-veracrypt.key';
    expect(host.created.get(keyfile)).toEqual({ mode: 0o600, content: { kind: 'random', sizeBytes: 64 } });

    // No password anywhere in argv: neither VeraCrypt switch, nor the BitLocker password (it goes on stdin).
    const argv = everyArgument(host);
    expect(argv).not.toMatch(/\/password|\/p\b/i);
    const bitlocker = host.commands.find((spec) => spec.args[3]?.includes('Enable-BitLocker') === true);
    expect(bitlocker?.stdin).toMatch(/^\S+\n$/);
    expect(argv).not.toContain(bitlocker?.stdin?.trim());

    // Format.exe runs through Start-Process with the keyfile path quoted (it has a space).
    const format = host.commands.find((spec) => spec.args[3]?.includes('VeraCrypt Format.exe') === true);
    expect(format?.args[3]).toContain(
      `-ArgumentList '/create D:\\encplan-bench-42-cd\\encplan-veracrypt.hc /size 320M /encryption AES /hash sha512 /pim 0 /keyfile "${keyfile}" /filesystem NTFS /silent' -Wait -PassThru`,
    );
    const veracryptRuns = host.commands.filter((spec) => spec.tool === 'veracrypt').map((spec) => spec.args);
    // Mounted and unmounted at the free letter Z with the same keyfile (the full argv: the argv tests).
    expect(veracryptRuns.map((args) => args.slice(0, 6))).toEqual([
      ['/volume', 'D:\\encplan-bench-42-cd\\encplan-veracrypt.hc', '/letter', 'Z', '/keyfile', keyfile],
      ['/dismount', 'Z', '/force', '/quit', '/silent'],
    ]);

    // Removed in reverse order of registration: the volume is unmounted before its container and keyfile go.
    expect(cleanup.map((outcome) => [outcome.resource, outcome.outcome])).toEqual([
      [{ kind: 'file', path: 'Z:\\encplan.dat' }, 'absent'],
      [{ kind: 'veracrypt-windows-volume', letter: 'Z' }, 'removed'],
      [{ kind: 'file', path: 'D:\\encplan-bench-42-cd\\encplan-veracrypt.hc' }, 'absent'],
      [{ kind: 'file', path: keyfile }, 'removed'],
      [{ kind: 'file', path: 'E:\\encplan.dat' }, 'absent'],
      [{ kind: 'vhd', path: 'D:\\encplan-bench-42-cd\\encplan-bitlocker.vhdx' }, 'removed'],
      [{ kind: 'file', path: 'D:\\encplan-bench-42-cd\\encplan-bitlocker.vhdx' }, 'absent'],
      [{ kind: 'file', path: 'D:\\encplan-bench-42-cd\\encplan.dat' }, 'absent'],
      [{ kind: 'directory', path: 'D:\\encplan-bench-42-cd' }, 'removed'],
    ]);
    expect(host.existing.has(keyfile)).toBe(false);
  });

  it('a container that does not mount as NTFS is skipped with the reason, BitLocker still measured, nothing left', async () => {
    const host = new FakeWindows(true);
    host.volumeAnswer = '';
    const { result, cleanup } = await runWindowsIoBenchmark(host, { target: 'D:\\', mode: 'quick' });
    expect(result.encrypted.map((target) => target.backend)).toEqual(['bitlocker']);
    expect(result.skipped).toEqual([
      {
        backend: 'veracrypt',
        variant: 'VeraCrypt AES, SHA-512 (file container)',
        code: 'TOOL_FAILED',
        message: 'VeraCrypt did not mount the test container at Z: (exit code 0, no NTFS volume there).',
      },
    ]);
    // Nothing was measured on Z:, and the mounted volume was still unmounted.
    expect(
      host.commands.some((spec) => spec.tool === 'diskspd' && spec.args.at(-1) === 'Z:\\encplan.dat'),
    ).toBe(false);
    expect(cleanup.find((outcome) => outcome.resource.kind === 'veracrypt-windows-volume')?.outcome).toBe(
      'removed',
    );
    expect([...host.existing].filter((path) => path.endsWith('.key'))).toEqual([]);
  });

  it('runs no VeraCrypt command when it is not installed or not wanted', async () => {
    for (const [installed, veracrypt] of [
      [false, undefined],
      [true, false],
    ] as const) {
      const host = new FakeWindows(installed);
      const { result } = await runWindowsIoBenchmark(host, {
        target: 'D:\\',
        mode: 'quick',
        ...(veracrypt === undefined ? {} : { veracrypt }),
      });
      expect(result.encrypted.map((target) => target.backend)).toEqual(['bitlocker']);
      expect(result.skipped).toEqual([]);
      expect(everyArgument(host)).not.toMatch(/VeraCrypt|veracrypt/);
    }
  });
});
