import { computeOverhead } from '../../analyses/io-overhead.js';
import { summarizeRuns } from '../../analyses/run-summary.js';
import {
  CRYSTALDISKMARK_PROFILES,
  bitlockerVhdSetup,
  diskspdProfileRun,
} from '../../benchmark-commands/windows.js';
import type {
  FioRun,
  IoBenchmark,
  IoBenchmarkMode,
  IoProfile,
  ProgressEvent,
  TargetMeasurement,
} from '../../domain/io-benchmark.js';
import type { Warning } from '../../domain/warning.js';
import { EncplanError, cancelled, isEncplanError, toolNotFound } from '../../errors.js';
import {
  parseFreeLetter,
  veracryptWindowsFormat,
  veracryptWindowsFreeLetter,
  veracryptWindowsMountArgs,
  veracryptWindowsVolumeCheck,
} from '../../benchmark-commands/windows-veracrypt.js';
import { parseDiskspdText, type DiskspdTotals } from '../../parsers/diskspd/parse-diskspd-text.js';
import { FIO_MODES, STANDARD_PROFILES } from '../../plan/fio-jobs.js';
import { resourceName } from '../../plan/encrypted-backends.js';
import type { Host } from '../../ports.js';
import { CleanupRegistry } from './cleanup-registry.js';
import { randomToken } from './paths.js';
import type { IoBenchmarkOutcome } from './run-io-benchmark.js';

const MIB = 1024 * 1024;
/** Room for NTFS metadata and BitLocker's own data around the test file in the VHDX. */
const VHD_OVERHEAD_MIB = 256;

/** Windows path join: one backslash between parts. */
function windowsJoin(directory: string, name: string): string {
  return `${directory.replace(/\\+$/, '')}\\${name}`;
}

/** The DiskSpd form of one of encplan's four standard profiles (CrystalDiskMark's). */
function crystalProfileOf(profile: IoProfile): (typeof CRYSTALDISKMARK_PROFILES)[number] {
  const found = CRYSTALDISKMARK_PROFILES.find(
    (candidate) =>
      candidate.random === (profile.pattern === 'random') &&
      candidate.queueDepth === profile.queueDepth &&
      candidate.threads === profile.threads &&
      candidate.blockSize === (profile.blockSizeBytes === MIB ? '1M' : '4K'),
  );
  if (found === undefined) {
    throw new EncplanError('INVALID_ARGUMENT', `DiskSpd has no form of profile ${profile.label}.`);
  }
  return found;
}

/** A percentile of the direction's latency column in nanoseconds, or null when DiskSpd printed none. */
function percentileNs(
  result: ReturnType<typeof parseDiskspdText>,
  label: string,
  direction: 'read' | 'write',
): number | null {
  const row = result.percentiles.find((candidate) => candidate.percentile === label);
  const ms = direction === 'read' ? row?.readMs : row?.writeMs;
  return ms === undefined || ms === null ? null : Math.round(ms * 1_000_000);
}

/**
 * One DiskSpd result as the run encplan's summaries and overhead analysis read (they were written for fio):
 * bytes and I/Os of the direction's "total:" row over the test time. DiskSpd's text gives CPU only per
 * processor, not per job, so the CPU fields are 0 and the bound analysis says so.
 */
export function diskspdRun(text: string, profile: IoProfile): FioRun {
  const result = parseDiskspdText(text);
  const totals: DiskspdTotals | null = profile.direction === 'read' ? result.read : result.write;
  if (totals === null) {
    throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', `DiskSpd printed no ${profile.direction} totals.`, {
      details: { tool: 'diskspd' },
    });
  }
  return {
    jobName: profile.id,
    direction: profile.direction,
    bytesPerSecond: Math.round(totals.bytes / result.testSeconds),
    iops: totals.ios / result.testSeconds,
    ioBytes: totals.bytes,
    runtimeMs: Math.round(result.testSeconds * 1000),
    clatP50Ns: percentileNs(result, '50th', profile.direction),
    clatP99Ns: percentileNs(result, '99th', profile.direction),
    clatP999Ns: percentileNs(result, '3-nines', profile.direction),
    cpuUserPercent: 0,
    cpuSystemPercent: 0,
    cpuPercent: 0,
  };
}

/**
 * `assess --benchmark` on Windows: DiskSpd with the four standard profiles (read and write) on a test file in
 * a private directory of `target` (a drive's root, e.g. `C:\`), then on a BitLocker-encrypted VHDX test volume
 * made in that directory (XTS-AES 256, password on stdin), and the overhead between them. Runs over the Host
 * (processes and effects), so `collect --benchmark` records it and `assess --bundle` replays it. Everything
 * created is registered before it exists and removed on success, error and abort; a killed run leaves its
 * state file for `encplan cleanup`.
 */
export async function runWindowsIoBenchmark(
  host: Host,
  options: {
    readonly target: string;
    readonly mode: IoBenchmarkMode;
    readonly onProgress?: (event: ProgressEvent) => void;
    readonly signal?: AbortSignal;
    /** Also measure a VeraCrypt file container when VeraCrypt is installed (default true). */
    readonly veracrypt?: boolean;
  },
): Promise<IoBenchmarkOutcome> {
  const started = await host.effects.monotonicMs();
  if ((await host.whichTool('diskspd')) === null) {
    throw toolNotFound('diskspd', 'win32');
  }
  const veracryptPath = options.veracrypt === false ? null : await host.whichTool('veracrypt');
  const settings = FIO_MODES[options.mode];
  const fileMebibytes = settings.fileSizeBytes / MIB;
  const identity = await host.effects.runIdentity();
  const registry = await CleanupRegistry.create(host, undefined, identity);
  const workDir = windowsJoin(options.target, resourceName(identity.pid, identity.nonce));
  const runCount = STANDARD_PROFILES.length * settings.repeats * (veracryptPath === null ? 2 : 3);
  let done = 0;
  const report = (phase: ProgressEvent['phase'], message: string): void =>
    options.onProgress?.({
      phase,
      message,
      runIndex: done,
      runCount,
      fraction: done / runCount,
      etaMs: null,
    });

  const measure = async (
    backend: 'plain' | 'bitlocker' | 'veracrypt',
    directory: string,
    notes: string[],
  ): Promise<TargetMeasurement> => {
    const testFile = windowsJoin(directory, 'encplan.dat');
    await registry.register({ kind: 'file', path: testFile });
    const profiles = [];
    for (const profile of STANDARD_PROFILES) {
      const runs: FioRun[] = [];
      let argv: string[] = [];
      for (let repeat = 1; repeat <= settings.repeats; repeat += 1) {
        options.signal?.throwIfAborted();
        report('measure', `${backend}: ${profile.label} ${profile.direction} (run ${repeat})`);
        const spec = diskspdProfileRun({
          profile: crystalProfileOf(profile),
          direction: profile.direction,
          testFile,
          fileSizeMebibytes: fileMebibytes,
          durationSeconds: settings.runtimeSeconds,
        });
        argv = [...spec.args];
        const output = await host.run(spec, options.signal);
        if (output.exitCode !== 0) {
          throw new EncplanError(
            'TOOL_FAILED',
            `diskspd failed with exit code ${output.exitCode}: ${output.stderr.trim().slice(-500)}`,
            { details: { tool: 'diskspd', args: argv, exitCode: output.exitCode } },
          );
        }
        runs.push(diskspdRun(output.stdout, profile));
        done += 1;
      }
      profiles.push({ profile, fioArgv: argv, runs, summary: summarizeRuns(runs) });
    }
    return {
      backend,
      variant: VARIANTS[backend],
      ioEngine: 'diskspd',
      directIo: true,
      fileSizeBytes: settings.fileSizeBytes,
      notes: [
        'DiskSpd -Sh (no software cache, write-through); CPU per job is not in its text result.',
        ...notes,
      ],
      profiles,
    };
  };

  const warnings: Warning[] = [];
  try {
    await registry.register({ kind: 'directory', path: workDir });
    await host.effects.makeDirectory(workDir, { mode: 0o700 });
    report('prepare', `Measuring plain NTFS in ${workDir}`);
    const plain = await measure('plain', workDir, []);
    report('prepare', 'Making a BitLocker test volume (VHDX)');
    const vhdPath = windowsJoin(workDir, 'encplan-bitlocker.vhdx');
    await registry.register({ kind: 'file', path: vhdPath });
    await registry.register({ kind: 'vhd', path: vhdPath });
    const setup = await host.run(
      bitlockerVhdSetup({
        vhdPath,
        sizeMebibytes: fileMebibytes + VHD_OVERHEAD_MIB,
        password: randomToken(24),
      }),
      options.signal,
    );
    const volume = parseBitLockerSetup(setup.exitCode, setup.stdout, setup.stderr);
    const bitlocker = await measure('bitlocker', `${volume.mountPoint}\\`, [
      `BitLocker ${volume.encryptionMethod} on a VHDX test volume (${volume.volumeStatus}).`,
    ]);
    const encrypted: TargetMeasurement[] = [{ ...bitlocker, verification: volume.verification }];
    const skipped: IoBenchmark['skipped'] = [];
    if (veracryptPath !== null) {
      try {
        encrypted.push(
          await measureVeraCrypt(host, {
            veracryptPath,
            registry,
            workDir,
            tempDirectory: identity.tempDirectory,
            sizeMebibytes: fileMebibytes + VHD_OVERHEAD_MIB,
            measure,
            report,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          }),
        );
      } catch (error) {
        if (options.signal?.aborted === true || !isEncplanError(error)) {
          throw error;
        }
        // VeraCrypt is measured in addition to BitLocker: its failure costs its rows, not the run.
        skipped.push({
          backend: 'veracrypt',
          variant: VARIANTS.veracrypt,
          code: error.code,
          message: error.message,
        });
      }
    }
    report('teardown', 'Removing the test volumes and files');
    const cleanup = await registry.finish(warnings);
    report('done', 'Done');
    const result: IoBenchmark = {
      mode: options.mode,
      target: options.target,
      destructive: false,
      plain,
      encrypted,
      overhead: encrypted.flatMap((target) => computeOverhead(plain, target, null)),
      skipped,
      cipherBytesPerSecondPerCore: null,
      wallTimeMs: Math.max(0, (await host.effects.monotonicMs()) - started),
    };
    return { result, warnings, cleanup };
  } catch (error) {
    await registry.releaseAll();
    if (options.signal?.aborted === true) {
      throw cancelled('The I/O benchmark');
    }
    throw error;
  }
}

/** How each measured target is named in the report. */
const VARIANTS = {
  plain: 'plain NTFS',
  bitlocker: 'BitLocker XTS-AES 256 (VHDX)',
  veracrypt: 'VeraCrypt AES, SHA-512 (file container)',
} as const;

/**
 * The VeraCrypt side: a container of the test size in the work directory, keyed by 64 random bytes in a
 * keyfile in the user's temporary directory (private to the user on Windows, unlike a drive's root) and no
 * password, so nothing secret is in any argv (benchmark-commands/windows-veracrypt.ts). Keyfile, container and
 * mounted volume are registered before they exist; the volume is measured only after Get-Volume shows NTFS at
 * its letter.
 */
async function measureVeraCrypt(
  host: Host,
  context: {
    readonly veracryptPath: string;
    readonly registry: CleanupRegistry;
    readonly workDir: string;
    readonly tempDirectory: string;
    readonly sizeMebibytes: number;
    readonly measure: (
      backend: 'veracrypt',
      directory: string,
      notes: string[],
    ) => Promise<TargetMeasurement>;
    readonly report: (phase: ProgressEvent['phase'], message: string) => void;
    readonly signal?: AbortSignal;
  },
): Promise<TargetMeasurement> {
  const { registry, signal } = context;
  context.report('prepare', 'Making a VeraCrypt test container');
  const containerPath = windowsJoin(context.workDir, 'encplan-veracrypt.hc');
  const keyfilePath = windowsJoin(context.tempDirectory, `${basename(context.workDir)}-veracrypt.key`);
  await registry.register({ kind: 'file', path: keyfilePath });
  await host.effects.createFile(keyfilePath, { mode: 0o600, content: { kind: 'random', sizeBytes: 64 } });
  await registry.register({ kind: 'file', path: containerPath });
  const formatted = await host.run(
    veracryptWindowsFormat({
      veracryptPath: context.veracryptPath,
      containerPath,
      keyfilePath,
      sizeMebibytes: context.sizeMebibytes,
    }),
    signal,
  );
  if (formatted.exitCode !== 0) {
    throw new EncplanError(
      'TOOL_FAILED',
      `VeraCrypt Format.exe could not make the test container (exit code ${formatted.exitCode}): ${formatted.stderr.trim().slice(-500)}`,
      { details: { tool: 'veracrypt', exitCode: formatted.exitCode } },
    );
  }
  const letter = parseFreeLetter((await host.run(veracryptWindowsFreeLetter(), signal)).stdout);
  await registry.register({ kind: 'veracrypt-windows-volume', letter });
  const mountArgs = veracryptWindowsMountArgs({ containerPath, keyfilePath, letter });
  const mounted = await host.run({ tool: 'veracrypt', args: mountArgs, timeoutMs: 300_000 }, signal);
  const check = await host.run(veracryptWindowsVolumeCheck(letter), signal);
  const volume = parseVolumeCheck(check.stdout, letter);
  if (mounted.exitCode !== 0 || volume === null) {
    throw new EncplanError(
      'TOOL_FAILED',
      `VeraCrypt did not mount the test container at ${letter}: (exit code ${mounted.exitCode}${volume === null ? ', no NTFS volume there' : ''}).`,
      { details: { tool: 'veracrypt', args: mountArgs, exitCode: mounted.exitCode } },
    );
  }
  const measured = await context.measure('veracrypt', `${letter}:\\`, [
    `VeraCrypt file container mounted at ${letter}: (NTFS), made by VeraCrypt Format.exe with AES and SHA-512, keyed by a keyfile and no password.`,
    "VeraCrypt's Windows command line prints no volume properties: the cipher is the one asked for at creation, the mount is proven by Get-Volume.",
  ]);
  return {
    ...measured,
    verification: {
      method: `VeraCrypt.exe /volume, Get-Volume -DriveLetter ${letter}`,
      identity: `${letter}:`,
      cipher: 'AES',
    },
  };
}

/** Get-Volume's JSON for `letter`: the volume when it is NTFS at that letter, else null. */
function parseVolumeCheck(stdout: string, letter: string): { readonly fileSystem: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim());
  } catch {
    return null;
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  return record.DriveLetter === letter && record.FileSystem === 'NTFS' ? { fileSystem: 'NTFS' } : null;
}

/** The last part of a Windows path. */
function basename(path: string): string {
  return path.replace(/\\+$/, '').split('\\').pop() ?? path;
}

/** What the VHDX set-up printed (Get-BitLockerVolume as JSON): measured only when it is fully encrypted. */
function parseBitLockerSetup(
  exitCode: number,
  stdout: string,
  stderr: string,
): {
  mountPoint: string;
  volumeStatus: string;
  encryptionMethod: string;
  verification: NonNullable<TargetMeasurement['verification']>;
} {
  if (exitCode !== 0) {
    throw new EncplanError(
      'TOOL_FAILED',
      `The BitLocker test volume could not be made (exit code ${exitCode}): ${stderr.trim().slice(-500)}`,
      { details: { tool: 'powershell', exitCode } },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim());
  } catch {
    parsed = null;
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  const { MountPoint: mountPoint, VolumeStatus: volumeStatus, EncryptionMethod: method } = record;
  if (typeof mountPoint !== 'string' || !/^[A-Za-z]:$/.test(mountPoint) || typeof method !== 'string') {
    throw new EncplanError(
      'TOOL_OUTPUT_UNRECOGNIZED',
      'The BitLocker test volume set-up printed no volume.',
      {
        details: { tool: 'powershell' },
      },
    );
  }
  if (volumeStatus !== 'FullyEncrypted' || !/^XtsAes/.test(method)) {
    throw new EncplanError(
      'TOOL_FAILED',
      `The BitLocker test volume is ${String(volumeStatus)} with ${method}: encplan measures only a fully encrypted volume.`,
      { details: { tool: 'powershell' } },
    );
  }
  return {
    mountPoint,
    volumeStatus,
    encryptionMethod: method,
    verification: { method: 'Get-BitLockerVolume', identity: mountPoint, cipher: method },
  };
}
