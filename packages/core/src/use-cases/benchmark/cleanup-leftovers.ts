import { joinPath, PATH_SEPARATOR } from './paths.js';
import type { CleanupReport, RemovalOutcome, Resource } from '../../domain/cleanup.js';
import type { Host } from '../../ports.js';
import {
  ENCPLAN_RESOURCE_PREFIX,
  losetupArgs,
  pidOfResourceName,
  veracryptArgs,
} from '../../plan/encrypted-backends.js';
import { parseLosetupList } from '../../parsers/losetup/parse-losetup-list.js';
import { parseMountInfo } from '../../parsers/proc/parse-mountinfo.js';
import { parseVeracryptList } from '../../parsers/veracrypt/parse-veracrypt-list.js';
import { findLeftoverStates, removeResource } from './cleanup-registry.js';

/** Where to look for leftovers. */
export interface CleanupOptions {
  readonly stateDirectory?: string;
  /**
   * Directories whose `encplan-bench-<pid>-*` entries of dead runs are removed. When given, mounts and loop
   * devices are only considered under them too (tests use this to stay off the machine's other mounts); by
   * default the temp dir is scanned and mounts and loop devices anywhere.
   */
  readonly scanDirectories?: readonly string[];
}

/** A test for "a path or name made by an encplan run whose process is gone", asking the host once per pid. */
function deadRunTest(host: Host, ownPid: number): (name: string) => Promise<boolean> {
  const known = new Map<number, Promise<boolean>>();
  return (name) => {
    const pid = pidOfResourceName(name);
    if (pid === null || pid === ownPid) {
      return Promise.resolve(false);
    }
    const alive = known.get(pid) ?? host.effects.processAlive(pid);
    known.set(pid, alive);
    return alive.then((isAlive) => !isAlive);
  };
}

async function filterAsync<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept: T[] = [];
  for (const item of items) {
    if (await keep(item)) {
      kept.push(item);
    }
  }
  return kept;
}

/** The `…/encplan-bench-<pid>-<suffix>` work directory a path lies in, or null. */
function workDirectoryOf(file: string): string | null {
  const parts = file.split(PATH_SEPARATOR);
  const index = parts.findIndex(
    (part) => part.startsWith(ENCPLAN_RESOURCE_PREFIX) && pidOfResourceName(part) !== null,
  );
  return index < 1 ? null : parts.slice(0, index + 1).join(PATH_SEPARATOR);
}

async function scanForResources(
  host: Host,
  ofDeadRun: (name: string) => Promise<boolean>,
  scanDirectories: readonly string[],
  restrictToScanDirectories: boolean,
): Promise<Resource[]> {
  const found: Resource[] = [];
  const inScope = async (file: string): Promise<boolean> =>
    file.includes(ENCPLAN_RESOURCE_PREFIX) &&
    (!restrictToScanDirectories ||
      scanDirectories.some((dir) => file.startsWith(`${dir}${PATH_SEPARATOR}`))) &&
    (await ofDeadRun(file));
  const mounts = (
    await filterAsync(
      parseMountInfo((await host.readText('/proc/self/mountinfo')) ?? '').map((entry) => entry.mountPoint),
      inScope,
    )
  )
    // Deepest first, so nested mounts come off before their parents.
    .sort((a, b) => b.length - a.length);
  found.push(...mounts.map((mountPoint): Resource => ({ kind: 'mount', mountPoint })));
  if ((await host.whichTool('veracrypt')) !== null) {
    const listed = await host.run({ tool: 'veracrypt', args: veracryptArgs.list(), timeoutMs: 30_000 });
    // veracrypt exits non-zero with "No volumes mounted"; only a zero exit has a list to read.
    if (listed.exitCode === 0) {
      for (const volume of parseVeracryptList(listed.stdout)) {
        if (await inScope(volume.volume)) {
          found.push({ kind: 'veracrypt-volume', container: volume.volume });
        }
      }
    }
  }
  for (const name of (await host.listDir('/dev/mapper')) ?? []) {
    if (name.startsWith(ENCPLAN_RESOURCE_PREFIX) && !restrictToScanDirectories && (await ofDeadRun(name))) {
      found.push({ kind: 'dm-mapping', name });
    }
  }
  if (host.platform === 'linux' && (await host.whichTool('losetup')) !== null) {
    const listed = await host.run({ tool: 'losetup', args: losetupArgs.list(), timeoutMs: 30_000 });
    if (listed.exitCode === 0) {
      for (const loop of parseLosetupList(listed.stdout)) {
        if (loop.backingFile !== null && (await inScope(loop.backingFile))) {
          found.push({ kind: 'loop-device', backingFile: loop.backingFile });
        }
      }
    }
  }
  const directories = new Set<string>();
  for (const resource of found) {
    const file =
      resource.kind === 'mount'
        ? resource.mountPoint
        : resource.kind === 'loop-device'
          ? resource.backingFile
          : resource.kind === 'veracrypt-volume'
            ? resource.container
            : null;
    const workDir = file === null ? null : workDirectoryOf(file);
    if (workDir !== null) {
      directories.add(workDir);
    }
  }
  for (const directory of scanDirectories) {
    for (const entry of (await host.listDir(directory)) ?? []) {
      if (entry.startsWith(ENCPLAN_RESOURCE_PREFIX) && (await ofDeadRun(entry))) {
        directories.add(joinPath(directory, entry));
      }
    }
  }
  return [
    ...found,
    ...[...directories].map((directory): Resource => ({ kind: 'directory', path: directory })),
  ];
}

function sameResource(a: Resource, b: Resource): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Finds and removes what killed encplan runs left: first the resources listed in their state files (newest
 * first), then anything else named `encplan-bench-<pid>-…` of a dead pid (mounts, VeraCrypt volumes, dm
 * mappings, loop devices over encplan files, scratch directories). Runs still alive are never touched.
 */
export async function cleanupLeftovers(host: Host, options: CleanupOptions = {}): Promise<CleanupReport> {
  const identity = await host.effects.runIdentity();
  const stateDirectory = options.stateDirectory ?? identity.stateDirectory;
  const outcomes: RemovalOutcome[] = [];
  const states = await findLeftoverStates(host, stateDirectory);
  for (const state of states) {
    const results: RemovalOutcome[] = [];
    for (const resource of [...state.resources].reverse()) {
      results.push(await removeResource(host, resource));
    }
    outcomes.push(...results);
    if (results.every((result) => result.outcome !== 'failed')) {
      await host.effects.remove(state.file, { recursive: false });
    }
  }
  const scanned = await scanForResources(
    host,
    deadRunTest(host, identity.pid),
    options.scanDirectories ?? [identity.tempDirectory],
    options.scanDirectories !== undefined,
  );
  for (const resource of scanned) {
    if (
      !outcomes.some((outcome) => sameResource(outcome.resource, resource) && outcome.outcome !== 'failed')
    ) {
      outcomes.push(await removeResource(host, resource));
    }
  }
  return { stateFiles: states.map((state) => state.file), outcomes };
}
