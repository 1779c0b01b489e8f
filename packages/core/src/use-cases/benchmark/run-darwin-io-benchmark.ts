import { computeOverhead } from '../../analyses/io-overhead.js';
import type { RemovalOutcome } from '../../domain/cleanup.js';
import type { IoBenchmarkMode, ProgressEvent } from '../../domain/io-benchmark.js';
import type { StorageModel } from '../../domain/storage-model.js';
import type { QuickRevision } from '../../domain/benchmark-settings.js';
import type { Warning } from '../../domain/warning.js';
import { toolNotFound } from '../../errors.js';
import { parseDiskutilInfo } from '../../parsers/diskutil/parse-diskutil-info.js';
import { FILESYSTEM_OVERHEAD_BYTES } from '../../plan/benchmark-footprint.js';
import { resourceName } from '../../plan/encrypted-backends.js';
import { DARWIN_COMMANDS } from '../../probes/darwin/probe-darwin-storage.js';
import { PhaseSchedule } from '../../probes/phase-schedule.js';
import type { Host } from '../../ports.js';
import { CleanupRegistry, releaseAndThrow } from './cleanup-registry.js';
import { joinPath } from './paths.js';
import {
  assertFreeSpace,
  measureTarget,
  planIoBenchmark,
  type IoBenchmarkOutcome,
} from './run-io-benchmark.js';
import { prepareApfsImage } from '../../targets/apfs/benchmark.js';
import { APFS_SYSTEM_ROLES } from '../../targets/apfs/volume-state.js';
import type { TargetContext } from './targets.js';

/** A mounted, writable volume of the assessed disk, and the directory the scratch images go in. */
export interface DarwinBenchmarkVolume {
  readonly volume: string;
  readonly mountPoint: string;
  readonly workParent: string;
}

/** APFS roles of volumes that are Apple's own and never hold the scratch images. */
const SYSTEM_ROLES = APFS_SYSTEM_ROLES;

/**
 * Where `assess diskN --benchmark` puts its scratch images on a Mac: the first mounted, writable volume of the
 * disk that `diskutil info -plist` confirms (the Data volume first, then other APFS volumes, then mounted
 * partitions). On the startup disk's Data volume (or a pre-Catalina boot volume at /) the images go in the
 * user's temporary directory, which macOS keeps on that volume (/private/var/folders; Apple Platform Security
 * guide, "Signed system volume security": user data lives on the Data volume); elsewhere in the volume's root.
 * Null with the reason when there is none.
 */
export async function chooseDarwinBenchmarkVolume(
  host: Host,
  storage: StorageModel,
  signal?: AbortSignal,
): Promise<DarwinBenchmarkVolume | { readonly reason: string }> {
  const rolesOf = (volume: StorageModel['volumes'][number]) => volume.roles ?? [];
  const volumes = storage.volumes
    .filter((volume) => !rolesOf(volume).some((role) => SYSTEM_ROLES.has(role)))
    .sort((a, b) => Number(rolesOf(b).includes('Data')) - Number(rolesOf(a).includes('Data')))
    .map((volume) => volume.id);
  const partitions = storage.partitions
    .filter((partition) => (partition.mountpoint ?? null) !== null)
    .map((partition) => partition.id);
  const candidates = [...new Set([...volumes, ...partitions])].filter((name) => /^disk\d+s\d+$/.test(name));
  const refused: string[] = [];
  for (const volume of candidates) {
    const output = await host.run(DARWIN_COMMANDS.info(volume), signal).catch(() => null);
    if (output === null || output.exitCode !== 0) {
      refused.push(`${volume}: diskutil info failed`);
      continue;
    }
    let info: ReturnType<typeof parseDiskutilInfo>;
    try {
      info = parseDiskutilInfo(output.stdout);
    } catch {
      refused.push(`${volume}: diskutil info printed no volume`);
      continue;
    }
    if (info.mountPoint === null) {
      refused.push(`${volume}: not mounted`);
    } else if (info.writable === false) {
      refused.push(`${volume}: read-only`);
    } else {
      const startup = info.mountPoint === '/' || info.mountPoint === '/System/Volumes/Data';
      const workParent = startup ? (await host.effects.runIdentity()).tempDirectory : info.mountPoint;
      return { volume, mountPoint: info.mountPoint, workParent };
    }
  }
  return {
    reason:
      candidates.length === 0
        ? `${storage.disk.id} has no APFS volume or mounted partition encplan could put a scratch disk image on`
        : `no volume of ${storage.disk.id} is mounted and writable (${refused.join('; ')})`,
  };
}

/**
 * `assess diskN --benchmark` on macOS: fio (posixaio) with the standard profiles on a plain APFS disk image,
 * then on an AES-256 encrypted one of the same size (hdiutil; random passphrase on stdin only), both made in a
 * private directory on a volume of the assessed disk and attached with `-nobrowse -owners on`; the overhead
 * between them. Both images are disk images, so the difference is the disk-image driver's AES on the CPU: an
 * upper bound of APFS encryption's cost, not FileVault's on an internal SSD whose controller always encrypts.
 * Runs over the Host, so `collect --benchmark` records it and `assess --bundle` replays it. Everything created
 * is registered before it exists and removed on success, error and abort; a killed run leaves its state file
 * for `encplan cleanup`.
 */
export async function runDarwinIoBenchmark(
  host: Host,
  options: {
    readonly volume: DarwinBenchmarkVolume;
    readonly mode: IoBenchmarkMode;
    readonly quickRevision?: QuickRevision;
    readonly onProgress?: (event: ProgressEvent) => void;
    readonly signal?: AbortSignal;
  },
): Promise<IoBenchmarkOutcome> {
  const started = await host.effects.monotonicMs();
  for (const tool of ['fio', 'hdiutil'] as const) {
    if ((await host.whichTool(tool)) === null) {
      // fio: "Install it: brew install fio."; hdiutil is part of macOS.
      throw toolNotFound(tool, 'darwin');
    }
  }
  const {
    settings,
    profiles,
    phases: planned,
    recorded,
  } = await planIoBenchmark(host, {
    backends: ['apfs'],
    mode: options.mode,
    sweep: false,
    ...(options.quickRevision === undefined ? {} : { quickRevision: options.quickRevision }),
  });
  const { workParent } = options.volume;
  // Both images exist at once: the plain one is measured and kept until the end, like Linux's scratch filesystem.
  await assertFreeSpace(host, workParent, 2 * (settings.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES));
  const identity = await host.effects.runIdentity();
  const registry = await CleanupRegistry.create(host, undefined, identity);
  const workDir = joinPath(workParent, resourceName(identity.pid, identity.nonce));
  const context: TargetContext = {
    host,
    registry,
    workDir,
    pid: identity.pid,
    fileSizeBytes: settings.fileSizeBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const phases = new PhaseSchedule([], options.onProgress);
  phases.plan(planned);
  const warnings: Warning[] = [];
  try {
    await registry.register({ kind: 'directory', path: workDir });
    await host.effects.makeDirectory(workDir, { mode: 0o700 });
    const plainTarget = await phases.run(
      'io:prepare:plain',
      `Making a plain APFS disk image in ${workDir}`,
      () => prepareApfsImage(context, false),
      'prepare',
    );
    const plain = await measureTarget(context, plainTarget, profiles, settings.repeats, options.mode, phases);
    const encryptedTarget = await phases.run(
      'io:prepare:apfs',
      'Making an AES-256 encrypted APFS disk image',
      () => prepareApfsImage(context, true),
      'prepare',
    );
    const encrypted = await measureTarget(
      context,
      encryptedTarget,
      profiles,
      settings.repeats,
      options.mode,
      phases,
    );
    // What became of everything the run made: the encrypted image first, then the plain one and the directory.
    const teardown = (id: string, message: string, work: () => Promise<RemovalOutcome[]>) =>
      phases.run(id, message, work, 'teardown');
    const cleanup = [
      ...(await teardown('io:teardown:apfs', 'Detaching and deleting the encrypted image', () =>
        registry.releaseTo(encryptedTarget.mark),
      )),
      ...(await teardown('io:teardown:scratch', 'Detaching and deleting the plain image', () =>
        registry.finish(warnings),
      )),
    ];
    phases.report('done', 'Done');
    return {
      result: {
        mode: options.mode,
        settings: recorded,
        target: options.volume.mountPoint,
        destructive: false,
        plain,
        encrypted: [encrypted],
        overhead: computeOverhead(plain, encrypted, null),
        skipped: [],
        cipherBytesPerSecondPerCore: null,
        wallTimeMs: Math.max(0, (await host.effects.monotonicMs()) - started),
      },
      warnings,
      cleanup,
    };
  } catch (error) {
    return releaseAndThrow(registry, error, options.signal);
  }
}
