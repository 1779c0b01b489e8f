import type { RemovalOutcome, Resource } from '../domain/cleanup.js';
import { InvariantError } from '../errors.js';
import { parseLosetupList } from '../parsers/losetup/parse-losetup-list.js';
import { parseMountinfo } from '../parsers/proc/mountinfo.js';
import type { Host } from '../ports.js';
import { losetupArgs, mountArgs } from './container-steps.js';
import { PATH_SEPARATOR } from './posix-paths.js';

/*
 * How what a benchmark made is torn down, one resource kind at a time: after each container (`releaseTo(mark)`),
 * at the end of a run, and by `encplan cleanup` for a run that was killed (use-cases/benchmark/cleanup-registry.ts
 * dispatches every kind through targets/registry.ts). The kinds every run shares (files, directories, loop devices,
 * mounts) are here; a target's own kinds are in its folder (targets/<id>/cleanup.ts). A teardown acts on the
 * identity the run recorded (a path, a mapping name, a backing file), never on a name it searches for.
 */

/** What became of one resource, without the resource itself (the registry adds it). */
export interface TeardownResult {
  readonly outcome: RemovalOutcome['outcome'];
  readonly message: string | null;
}

/** What a teardown may read: the host, and every resource the same run recorded (a file may back its loop device). */
export interface TeardownContext {
  readonly host: Host;
  readonly recorded: readonly Resource[];
}

/** The resource of one kind. */
export type ResourceOfKind<K extends Resource['kind']> = Extract<Resource, { readonly kind: K }>;

/** How one resource kind is removed. Never throws for a resource that is in use or gone: the outcome says so. */
export interface ResourceTeardown {
  readonly kind: Resource['kind'];
  /**
   * A `kept` outcome settles the record (it is dropped from the state file): for a kind encplan never removes,
   * whose record serves nothing (fscrypt's global state of old runs).
   */
  readonly forgetWhenKept: boolean;
  remove(resource: Resource, context: TeardownContext): Promise<TeardownResult>;
}

/** A teardown of `kind` from a function typed for that kind's resource. */
export function teardownOf<K extends Resource['kind']>(
  kind: K,
  remove: (resource: ResourceOfKind<K>, context: TeardownContext) => Promise<TeardownResult>,
  options: { readonly forgetWhenKept?: boolean } = {},
): ResourceTeardown {
  const isKind = (resource: Resource): resource is ResourceOfKind<K> => resource.kind === kind;
  return {
    kind,
    forgetWhenKept: options.forgetWhenKept ?? false,
    remove: (resource, context) => {
      if (!isKind(resource)) {
        throw new InvariantError(`The ${kind} teardown was given a ${resource.kind} resource.`);
      }
      return remove(resource, context);
    },
  };
}

/** An outcome with an optional message. */
export function outcome(kind: TeardownResult['outcome'], message: string | null = null): TeardownResult {
  return { outcome: kind, message };
}

const COMMAND_TIMEOUT_MS = 60_000;

/** Runs a teardown tool; never throws: whether it exited 0 and its stderr (or the error's message). */
export async function runQuiet(
  host: Host,
  tool: Parameters<Host['run']>[0]['tool'],
  args: string[],
  env?: Readonly<Record<string, string>>,
): Promise<{ ok: boolean; message: string }> {
  try {
    const output = await host.run({
      tool,
      args,
      timeoutMs: COMMAND_TIMEOUT_MS,
      ...(env === undefined ? {} : { env }),
    });
    return { ok: output.exitCode === 0, message: output.stderr.trim() };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

async function mountPoints(host: Host): Promise<Set<string>> {
  const text = await host.readText('/proc/self/mountinfo');
  return new Set(text === null ? [] : parseMountinfo(text).map((entry) => entry.mountPoint));
}

/** The loop devices attached to `backingFile` (none where there is no losetup: not Linux). */
async function loopDevicesOver(host: Host, backingFile: string): Promise<string[]> {
  if (host.platform !== 'linux' || (await host.whichTool('losetup')) === null) {
    return [];
  }
  const listed = await host.run({ tool: 'losetup', args: losetupArgs.list(), timeoutMs: COMMAND_TIMEOUT_MS });
  return parseLosetupList(listed.exitCode === 0 ? listed.stdout : '')
    .filter((loop) => loop.backingFile === backingFile)
    .map((loop) => loop.device);
}

/**
 * A file or directory the run made. Directories that still hold a mount are left alone, so a failed unmount can
 * never turn into deleting a mounted filesystem; nothing is ever deleted recursively.
 */
async function removePath(
  resource: ResourceOfKind<'directory' | 'file'>,
  { host, recorded }: TeardownContext,
): Promise<TeardownResult> {
  if ((await host.stat(resource.path)) === null) {
    return outcome('absent');
  }
  const prefix = `${resource.path}${PATH_SEPARATOR}`;
  const busy = [...(await mountPoints(host))].find(
    (point) => point === resource.path || point.startsWith(prefix),
  );
  if (busy !== undefined) {
    return outcome('busy', `${busy} is still mounted ${busy === resource.path ? 'there' : 'inside it'}.`);
  }
  // A file the run attached a loop device to: never deleted while it is still attached.
  const backsLoop = recorded.some(
    (other) => other.kind === 'loop-device' && other.backingFile === resource.path,
  );
  const loops = backsLoop ? await loopDevicesOver(host, resource.path) : [];
  if (loops.length > 0) {
    return outcome('busy', `loop device ${loops.join(', ')} is still attached to it.`);
  }
  if (resource.kind === 'directory') {
    // Only what the run recorded is removed (newest first, so its files are gone by now); a folder that
    // still holds anything is someone else's too, and nothing is ever deleted recursively.
    const left = (await host.listDir(resource.path)) ?? [];
    if (left.length > 0) {
      return outcome(
        'kept',
        `it holds ${left.length} ${left.length === 1 ? 'entry' : 'entries'} encplan did not record (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}); encplan removes only what it recorded.`,
      );
    }
  }
  await host.effects.remove(resource.path, { recursive: false });
  return outcome('removed');
}

async function unmount(
  resource: ResourceOfKind<'mount'>,
  { host }: TeardownContext,
): Promise<TeardownResult> {
  if (!(await mountPoints(host)).has(resource.mountPoint)) {
    return outcome('absent');
  }
  let result = await runQuiet(host, 'umount', mountArgs.unmount(resource.mountPoint));
  if (!result.ok) {
    // A filesystem can stay busy for a moment after fio exits (its last fsync); try once more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    result = await runQuiet(host, 'umount', mountArgs.unmount(resource.mountPoint));
  }
  if (!result.ok) {
    // A run that was SIGKILLed leaves its fio running on this scratch filesystem (tools run in their own
    // process groups, and SIGKILL runs no exit hook), which keeps it busy. Everything using a filesystem
    // this run made and mounted is the run's own: `fuser -k -m` (psmisc) ends it, then unmount again.
    await runQuiet(host, 'fuser', ['-k', '-m', resource.mountPoint]);
    for (let attempt = 0; attempt < 5 && !result.ok; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      result = await runQuiet(host, 'umount', mountArgs.unmount(resource.mountPoint));
    }
  }
  if (result.ok) {
    return outcome('removed');
  }
  return (await mountPoints(host)).has(resource.mountPoint)
    ? outcome('busy', `still mounted: ${result.message}`)
    : outcome('failed', result.message);
}

async function detachLoops(
  resource: ResourceOfKind<'loop-device'>,
  { host }: TeardownContext,
): Promise<TeardownResult> {
  const devices = await loopDevicesOver(host, resource.backingFile);
  if (devices.length === 0) {
    return outcome('absent');
  }
  const failures: string[] = [];
  for (const device of devices) {
    const result = await runQuiet(host, 'losetup', losetupArgs.detach(device));
    if (!result.ok) {
      failures.push(`${device}: ${result.message}`);
    }
  }
  // `losetup --detach` of a loop device in use (mounted, or opened by a mapping) succeeds but only sets
  // autoclear (losetup(8), LO_FLAGS_AUTOCLEAR in loop(4)): it stays attached. Only a list without it is proof.
  const still = await loopDevicesOver(host, resource.backingFile);
  if (still.length > 0) {
    return outcome(
      'busy',
      `${still.join(', ')} still attached (in use: mounted or held open)${failures.length === 0 ? '' : `: ${failures.join('; ')}`}.`,
    );
  }
  return failures.length === 0 ? outcome('removed') : outcome('failed', failures.join('; '));
}

/** The teardown of the kinds every run registers, whatever it measures. */
export const SHARED_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('directory', removePath),
  teardownOf('file', removePath),
  teardownOf('mount', unmount),
  teardownOf('loop-device', detachLoops),
];
