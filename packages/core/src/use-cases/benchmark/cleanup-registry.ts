import { joinPath } from './paths.js';
import { z } from 'zod';
import { resourceSchema, type RemovalOutcome, type Resource } from '../../domain/cleanup.js';
import type { Host, RunIdentity } from '../../ports.js';
import { cancelled } from '../../errors.js';
import type { Warning } from '../../domain/warning.js';
import { teardownOfKind } from '../../targets/registry.js';
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

function describe(resource: Resource): string {
  return JSON.stringify(resource);
}

/** Whether an outcome means the resource is gone for good (or was never encplan's to remove). */
export function resourceSettled(outcome: RemovalOutcome): boolean {
  return (
    outcome.outcome === 'removed' ||
    outcome.outcome === 'absent' ||
    // A kind encplan never removes (fscrypt's global state, issue 16): keeping its record serves nothing.
    (outcome.outcome === 'kept' && teardownOfKind(outcome.resource.kind).forgetWhenKept)
  );
}

/**
 * Removes one resource if it is still there, with the teardown of its kind: the shared steps (files,
 * directories, loop devices, mounts: targets/teardown-steps.ts) or the target that registers it
 * (targets/<id>/cleanup.ts), found through targets/registry.ts. Never throws: the outcome says what happened.
 * Directories that still hold a mount are left alone, so a failed unmount can never turn into deleting a
 * mounted filesystem.
 */
export async function removeResource(
  host: Host,
  resource: Resource,
  recorded: readonly Resource[] = [],
): Promise<RemovalOutcome> {
  try {
    const result = await teardownOfKind(resource.kind).remove(resource, { host, recorded });
    return { resource, outcome: result.outcome, message: result.message };
  } catch (error) {
    return {
      resource,
      outcome: 'failed',
      message: `${describe(resource)}: ${error instanceof Error ? error.message : String(error)}`,
    };
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
