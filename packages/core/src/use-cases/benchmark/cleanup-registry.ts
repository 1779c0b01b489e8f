import { dismountVhd } from '../../benchmark-commands/windows.js';
import { veracryptWindowsDismountArgs } from '../../benchmark-commands/windows-veracrypt.js';
import { joinPath, PATH_SEPARATOR } from './paths.js';
import { z } from 'zod';
import { resourceSchema, type RemovalOutcome, type Resource } from '../../domain/cleanup.js';
import type { Host, RunIdentity } from '../../ports.js';
import { cancelled } from '../../errors.js';
import type { Warning } from '../../domain/warning.js';
import {
  cryptsetupArgs,
  fscryptArgs,
  fscryptEnvironment,
  hdiutilArgs,
  losetupArgs,
  mountArgs,
  veracryptArgs,
} from '../../plan/encrypted-backends.js';
import { parseLosetupList } from '../../parsers/losetup/parse-losetup-list.js';
import { parseMountinfo } from '../../parsers/proc/mountinfo.js';
import { runLiveness, type RunLiveness } from './run-liveness.js';

const stateFileSchema = z.object({
  pid: z.number().int(),
  startedAt: z.string(),
  /** readlink /proc/self/ns/pid of the run; absent in state files of encplan before cleanup 1.2. */
  pidNamespace: z.string().nullable().optional(),
  /** Field 22 of the run's /proc/self/stat; absent in older state files. */
  processStartTime: z.string().nullable().optional(),
  resources: z.array(resourceSchema),
});
type StateFile = z.infer<typeof stateFileSchema>;

const COMMAND_TIMEOUT_MS = 60_000;

async function mountPoints(host: Host): Promise<Set<string>> {
  const text = await host.readText('/proc/self/mountinfo');
  return new Set(text === null ? [] : parseMountinfo(text).map((entry) => entry.mountPoint));
}

function describe(resource: Resource): string {
  return JSON.stringify(resource);
}

async function runQuiet(
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

/** Whether an outcome means the resource is gone for good (or was never encplan's to remove). */
export function resourceSettled(outcome: RemovalOutcome): boolean {
  return (
    outcome.outcome === 'removed' ||
    outcome.outcome === 'absent' ||
    // fscrypt's global state: never removed by encplan (issue 16), so keeping its record serves nothing.
    (outcome.outcome === 'kept' && outcome.resource.kind === 'global-path')
  );
}

/**
 * Removes one resource if it is still there. Never throws: the outcome says what happened. Directories that
 * still hold a mount are left alone, so a failed unmount can never turn into deleting a mounted filesystem.
 */
export async function removeResource(
  host: Host,
  resource: Resource,
  recorded: readonly Resource[] = [],
): Promise<RemovalOutcome> {
  const done = (outcome: RemovalOutcome['outcome'], message: string | null = null): RemovalOutcome => ({
    resource,
    outcome,
    message,
  });
  try {
    switch (resource.kind) {
      case 'global-path':
        // Old runs recorded fscrypt's /etc/fscrypt.conf and /.fscrypt and deleted them recursively, destroying
        // any fscrypt setup the user made since (issue 16). They are never removed now: encplan cannot tell
        // what in them is its own, and current runs keep fscrypt's state in their private directory instead.
        return (await host.stat(resource.path)) === null
          ? done('absent')
          : done(
              'kept',
              `${resource.path} is fscrypt's global state and may hold the user's protectors; encplan leaves it alone (remove it yourself if you never use fscrypt).`,
            );
      case 'directory':
      case 'file': {
        if ((await host.stat(resource.path)) === null) {
          return done('absent');
        }
        const prefix = `${resource.path}${PATH_SEPARATOR}`;
        const busy = [...(await mountPoints(host))].find(
          (point) => point === resource.path || point.startsWith(prefix),
        );
        if (busy !== undefined) {
          return done('busy', `${busy} is still mounted ${busy === resource.path ? 'there' : 'inside it'}.`);
        }
        // A file the run attached a loop device to: never deleted while it is still attached.
        const backsLoop = recorded.some(
          (other) => other.kind === 'loop-device' && other.backingFile === resource.path,
        );
        const loops = backsLoop ? await loopDevicesOver(host, resource.path) : [];
        if (loops.length > 0) {
          return done('busy', `loop device ${loops.join(', ')} is still attached to it.`);
        }
        if (resource.kind === 'directory') {
          // Only what the run recorded is removed (newest first, so its files are gone by now); a folder that
          // still holds anything is someone else's too, and nothing is ever deleted recursively.
          const left = (await host.listDir(resource.path)) ?? [];
          if (left.length > 0) {
            return done(
              'kept',
              `it holds ${left.length} ${left.length === 1 ? 'entry' : 'entries'} encplan did not record (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}); encplan removes only what it recorded.`,
            );
          }
        }
        await host.effects.remove(resource.path, { recursive: false });
        return done('removed');
      }
      case 'mount': {
        if (!(await mountPoints(host)).has(resource.mountPoint)) {
          return done('absent');
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
          return done('removed');
        }
        return (await mountPoints(host)).has(resource.mountPoint)
          ? done('busy', `still mounted: ${result.message}`)
          : done('failed', result.message);
      }
      case 'loop-device': {
        const devices = await loopDevicesOver(host, resource.backingFile);
        if (devices.length === 0) {
          return done('absent');
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
          return done(
            'busy',
            `${still.join(', ')} still attached (in use: mounted or held open)${failures.length === 0 ? '' : `: ${failures.join('; ')}`}.`,
          );
        }
        return failures.length === 0 ? done('removed') : done('failed', failures.join('; '));
      }
      case 'dm-mapping': {
        if ((await host.stat(`/dev/mapper/${resource.name}`)) === null) {
          return done('absent');
        }
        const result = await runQuiet(host, 'cryptsetup', cryptsetupArgs.close(resource.name));
        if (result.ok) {
          return done('removed');
        }
        return (await host.stat(`/dev/mapper/${resource.name}`)) === null
          ? done('failed', result.message)
          : done('busy', `still open: ${result.message}`);
      }
      case 'fscrypt-policy': {
        if ((await host.stat(resource.directory)) === null) {
          return done('absent');
        }
        // Unmounting the filesystem also removes a v2 policy's key from its keyring (fscrypt README); locking
        // first drops it as soon as the measurement ends. A lock that fails here is therefore not fatal.
        const result = await runQuiet(
          host,
          'fscrypt',
          fscryptArgs.lock(resource.directory),
          resource.configFile === undefined || resource.rootMount === undefined
            ? undefined
            : fscryptEnvironment({ configFile: resource.configFile, rootMount: resource.rootMount }),
        );
        return done(result.ok ? 'removed' : 'absent', result.ok ? null : result.message);
      }
      case 'veracrypt-volume': {
        const result = await runQuiet(host, 'veracrypt', veracryptArgs.dismount(resource.container));
        return result.ok ? done('removed') : done('absent', result.message);
      }
      case 'disk-image': {
        if ((await host.stat(resource.mountPoint)) === null) {
          return done('absent');
        }
        let result = await runQuiet(host, 'hdiutil', hdiutilArgs.detach(resource.mountPoint));
        if (!result.ok) {
          // A killed run's fio may still hold files open on its own scratch image; nothing else uses it.
          result = await runQuiet(host, 'hdiutil', hdiutilArgs.forceDetach(resource.mountPoint));
        }
        return result.ok ? done('removed') : done('absent', result.message);
      }
      case 'vhd': {
        const spec = dismountVhd(resource.path);
        const result = await runQuiet(host, spec.tool, [...spec.args]);
        return result.ok ? done('removed') : done('failed', result.message);
      }
      case 'veracrypt-windows-volume': {
        if ((await host.stat(`${resource.letter}:\\`)) === null) {
          return done('absent');
        }
        // Only this letter: /dismount without one would unmount every VeraCrypt volume of the user.
        const result = await runQuiet(host, 'veracrypt', veracryptWindowsDismountArgs(resource.letter));
        return result.ok ? done('removed') : done('failed', result.message);
      }
    }
  } catch (error) {
    return done('failed', `${describe(resource)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Every resource a run creates, persisted to a state file before it is created, so that a run killed with
 * SIGKILL leaves a list `encplan cleanup` can act on. `release*` remove in reverse order of registration.
 */
export class CleanupRegistry {
  private readonly resources: Resource[] = [];
  /** Resources whose removal failed: kept in the state file for `encplan cleanup`. */
  private readonly leftovers: Resource[] = [];
  private readonly stateFile: string;

  private constructor(
    private readonly host: Host,
    stateDirectory: string,
    private readonly identity: RunIdentity,
  ) {
    // The nonce keeps two runs of one process that start in the same millisecond apart (issue 16).
    this.stateFile = joinPath(
      stateDirectory,
      `${identity.pid}-${Date.parse(identity.startedAt)}-${identity.nonce}.json`,
    );
  }

  /**
   * Creates a registry for the run `identity` (default: a new one from the host) whose state file lives in
   * `stateDirectory` (default: the host's; created 0700 if missing).
   */
  static async create(host: Host, stateDirectory?: string, identity?: RunIdentity): Promise<CleanupRegistry> {
    const run = identity ?? (await host.effects.runIdentity());
    const directory = stateDirectory ?? run.stateDirectory;
    await host.effects.makeDirectory(directory, { mode: 0o700, recursive: true });
    const registry = new CleanupRegistry(host, directory, run);
    await registry.persist();
    return registry;
  }

  /** The state file of this run. */
  get stateFilePath(): string {
    return this.stateFile;
  }

  /** How many resources are registered; pass it to `releaseTo` to undo everything registered after. */
  mark(): number {
    return this.resources.length;
  }

  /** Records a resource (and writes the state file) before the caller creates it. */
  async register(resource: Resource): Promise<void> {
    this.resources.push(resource);
    await this.persist();
  }

  /** Removes, newest first, every resource registered after `mark`. */
  async releaseTo(mark: number): Promise<RemovalOutcome[]> {
    const outcomes: RemovalOutcome[] = [];
    const recorded = [...this.resources, ...this.leftovers];
    while (this.resources.length > mark) {
      const resource = this.resources.pop()!;
      const outcome = await removeResource(this.host, resource, recorded);
      outcomes.push(outcome);
      if (!resourceSettled(outcome)) {
        this.leftovers.push(resource);
      }
      await this.persist();
    }
    return outcomes;
  }

  /** Drops, without removing them, the records after `mark` of things the caller has removed itself. */
  async forgetTo(mark: number): Promise<void> {
    this.resources.length = Math.min(this.resources.length, mark);
    await this.persist();
  }

  /** Removes everything; deletes the state file when nothing was left behind. */
  async releaseAll(): Promise<RemovalOutcome[]> {
    const outcomes = await this.releaseTo(0);
    if (this.leftovers.length === 0) {
      await this.host.effects.remove(this.stateFile, { recursive: false });
    }
    return outcomes;
  }

  /** `releaseAll` at the end of a successful run: what could not be removed becomes a warning in `warnings`. */
  async finish(warnings: Warning[]): Promise<RemovalOutcome[]> {
    const cleanup = await this.releaseAll();
    const failed = cleanup.filter((outcome) => !resourceSettled(outcome));
    if (failed.length > 0) {
      warnings.push({
        code: 'TOOL_FAILED',
        message: `Some benchmark resources could not be removed (run "encplan cleanup"): ${failed.map((outcome) => outcome.message ?? '').join('; ')}`,
        source: this.stateFile,
      });
    }
    return cleanup;
  }

  private async persist(): Promise<void> {
    const state: StateFile = {
      pid: this.identity.pid,
      startedAt: this.identity.startedAt,
      pidNamespace: this.identity.pidNamespace ?? null,
      processStartTime: this.identity.processStartTime ?? null,
      resources: [...this.leftovers.slice().reverse(), ...this.resources],
    };
    await this.host.effects.writeTextAtomic(this.stateFile, `${JSON.stringify(state, null, 2)}\n`, 0o600);
  }
}

/**
 * The end of a failed run: removes everything `registry` holds, then throws CANCELLED when `signal` fired
 * (the user stopped it), else the error itself.
 */
export async function releaseAndThrow(
  registry: CleanupRegistry,
  error: unknown,
  signal: AbortSignal | undefined,
): Promise<never> {
  await registry.releaseAll();
  if (signal?.aborted === true) {
    throw cancelled('The I/O benchmark');
  }
  throw error;
}

/** A state file a run left, with its resources and whether that run is proven dead. */
export interface LeftoverState {
  readonly file: string;
  readonly pid: number;
  readonly pidNamespace: string | null;
  readonly liveness: RunLiveness;
  readonly resources: readonly Resource[];
}

/**
 * Every readable state file in `stateDirectory` but `self`'s own, with the status of its run (`runLiveness`).
 * Only those whose status is `dead` may be acted on. Unreadable files are skipped.
 */
export async function findLeftoverStates(
  host: Host,
  stateDirectory: string,
  self: Pick<RunIdentity, 'pid' | 'pidNamespace'>,
): Promise<LeftoverState[]> {
  const names = (await host.listDir(stateDirectory).catch(() => null)) ?? [];
  const states: LeftoverState[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
    const file = joinPath(stateDirectory, name);
    const text = await host.readText(file).catch(() => null);
    let document: unknown;
    try {
      document = JSON.parse(text ?? 'null');
    } catch {
      document = null;
    }
    const parsed = stateFileSchema.safeParse(document);
    if (parsed.success) {
      states.push({
        file,
        pid: parsed.data.pid,
        pidNamespace: parsed.data.pidNamespace ?? null,
        liveness: await runLiveness(host, self, parsed.data),
        resources: parsed.data.resources,
      });
    }
  }
  return states;
}
