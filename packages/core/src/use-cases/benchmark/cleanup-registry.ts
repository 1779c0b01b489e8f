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
import { parseMountInfo } from '../../parsers/proc/parse-mountinfo.js';

const stateFileSchema = z.object({
  pid: z.number().int(),
  startedAt: z.string(),
  resources: z.array(resourceSchema),
});
type StateFile = z.infer<typeof stateFileSchema>;

const COMMAND_TIMEOUT_MS = 60_000;

async function mountPoints(host: Host): Promise<Set<string>> {
  const text = await host.readText('/proc/self/mountinfo');
  return new Set(text === null ? [] : parseMountInfo(text).map((entry) => entry.mountPoint));
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

/**
 * Removes one resource if it is still there. Never throws: the outcome says what happened. Directories that
 * still hold a mount are left alone, so a failed unmount can never turn into deleting a mounted filesystem.
 */
export async function removeResource(host: Host, resource: Resource): Promise<RemovalOutcome> {
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
          return done('failed', `${busy} is still mounted inside it.`);
        }
        await host.effects.remove(resource.path, { recursive: resource.kind === 'directory' });
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
        return result.ok ? done('removed') : done('failed', result.message);
      }
      case 'loop-device': {
        const listed = await host.run({
          tool: 'losetup',
          args: losetupArgs.list(),
          timeoutMs: COMMAND_TIMEOUT_MS,
        });
        const devices = parseLosetupList(listed.stdout).filter(
          (loop) => loop.backingFile === resource.backingFile,
        );
        if (devices.length === 0) {
          return done('absent');
        }
        const failures: string[] = [];
        for (const loop of devices) {
          const result = await runQuiet(host, 'losetup', losetupArgs.detach(loop.device));
          if (!result.ok) {
            failures.push(`${loop.device}: ${result.message}`);
          }
        }
        return failures.length === 0 ? done('removed') : done('failed', failures.join('; '));
      }
      case 'dm-mapping': {
        if ((await host.stat(`/dev/mapper/${resource.name}`)) === null) {
          return done('absent');
        }
        const result = await runQuiet(host, 'cryptsetup', cryptsetupArgs.close(resource.name));
        return result.ok ? done('removed') : done('failed', result.message);
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
    while (this.resources.length > mark) {
      const resource = this.resources.pop()!;
      outcomes.push(await removeResource(this.host, resource));
      if (outcomes.at(-1)?.outcome === 'failed') {
        this.leftovers.push(resource);
      }
      await this.persist();
    }
    return outcomes;
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
    const failed = cleanup.filter((outcome) => outcome.outcome === 'failed');
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

/** A state file another run left, with its resources. */
export interface LeftoverState {
  readonly file: string;
  readonly pid: number;
  readonly resources: readonly Resource[];
}

/** State files in `stateDirectory` whose process is gone (it crashed or was killed). Unreadable files are skipped. */
export async function findLeftoverStates(host: Host, stateDirectory: string): Promise<LeftoverState[]> {
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
    if (parsed.success && !(await host.effects.processAlive(parsed.data.pid))) {
      states.push({ file, pid: parsed.data.pid, resources: parsed.data.resources });
    }
  }
  return states;
}
