import type { EncplanError } from '../errors.js';
import { isEncplanError } from '../errors.js';
import type { Warning, WarningCode } from '../domain/warning.js';
import type { CommandOutput, CommandSpec, Host } from '../ports.js';

/** What every probe gets: the host, a place to put warnings, and the cancellation signal. */
export interface ProbeContext {
  readonly host: Host;
  readonly warnings: Warning[];
  readonly signal: AbortSignal | undefined;
}

/** Creates a probe context with an empty warning list. */
export function createProbeContext(host: Host, signal?: AbortSignal): ProbeContext {
  return { host, warnings: [], signal };
}

/** The warning code an expected probe error becomes. */
export function warningCodeFor(error: EncplanError): WarningCode {
  switch (error.code) {
    case 'TOOL_NOT_FOUND':
      return 'TOOL_MISSING';
    case 'TOOL_TIMED_OUT':
      return 'TOOL_TIMED_OUT';
    case 'PERMISSION_DENIED':
      return 'PERMISSION_LIMITED';
    case 'TOOL_OUTPUT_UNRECOGNIZED':
      return 'TOOL_OUTPUT_UNRECOGNIZED';
    case 'KERNEL_FEATURE_MISSING':
      return 'KERNEL_FEATURE_MISSING';
    default:
      return 'TOOL_FAILED';
  }
}

/** Records a warning once (the same code, source and message are not repeated). */
export function addWarning(context: ProbeContext, warning: Warning): void {
  if (
    !context.warnings.some(
      (w) => w.code === warning.code && w.source === warning.source && w.message === warning.message,
    )
  ) {
    context.warnings.push(warning);
  }
}

/**
 * Runs an optional probe step: an expected failure (missing tool, timeout, permission, unreadable
 * output) becomes a warning saying what is lost, and the result is null. Cancellation and bugs propagate.
 */
export async function attempt<T>(
  context: ProbeContext,
  source: string,
  purpose: string,
  step: () => Promise<T>,
): Promise<T | null> {
  try {
    return await step();
  } catch (error) {
    if (!isEncplanError(error) || error.code === 'CANCELLED' || error.code === 'INTERNAL_ERROR') {
      throw error;
    }
    addWarning(context, {
      code: warningCodeFor(error),
      message: `${purpose}: ${error.message}${error.hint === undefined ? '' : ` ${error.hint}`}`,
      source,
    });
    return null;
  }
}

/**
 * The commands (tool and subcommand, e.g. `cryptsetup benchmark`) whose deadline fired in a probe context: they
 * are not run again in that run, so one hung tool costs one deadline, not one per step (issue 25).
 */
const hungCommands = new WeakMap<ProbeContext, Map<string, string>>();

function commandKey(spec: CommandSpec): string {
  return [spec.tool, ...spec.args.slice(0, 1)].join(' ');
}

/**
 * Runs a command through the host; a missing tool or a timeout becomes a warning and null. After a command's
 * deadline fired, the same tool and subcommand is not run again in this context: a warning and null.
 */
export function tryRun(
  context: ProbeContext,
  spec: CommandSpec,
  purpose: string,
): Promise<CommandOutput | null> {
  const key = commandKey(spec);
  const hung = hungCommands.get(context)?.get(key);
  if (hung !== undefined) {
    addWarning(context, {
      code: 'TOOL_TIMED_OUT',
      message: `${purpose}: not run, since \`${key}\` did not finish earlier in this run (${hung}).`,
      source: spec.tool,
    });
    return Promise.resolve(null);
  }
  return attempt(context, spec.tool, purpose, async () => {
    try {
      return await context.host.run(spec, context.signal);
    } catch (error) {
      if (isEncplanError(error) && error.code === 'TOOL_TIMED_OUT') {
        const known = hungCommands.get(context) ?? new Map<string, string>();
        known.set(key, error.message);
        hungCommands.set(context, known);
      }
      throw error;
    }
  });
}

/**
 * Whether an error is a replay host saying the bundle holds no output of this exact command: a bundle made by
 * an encplan that asked for the same fact another way. Probes that changed how they ask fall back to the old
 * way on this error, so bundles collected before keep replaying.
 */
function isUncaptured(error: unknown): boolean {
  return isEncplanError(error) && error.details?.uncaptured === true;
}

/**
 * Like {@link tryRun}, but 'uncaptured' when replaying a bundle that never ran this command (see
 * {@link isUncaptured}), so the caller can ask the way the bundle's encplan did.
 */
export async function tryRunOrUncaptured(
  context: ProbeContext,
  spec: CommandSpec,
  purpose: string,
): Promise<CommandOutput | 'uncaptured' | null> {
  try {
    return await context.host.run(spec, context.signal);
  } catch (error) {
    if (isUncaptured(error)) {
      return 'uncaptured';
    }
    return attempt(context, spec.tool, purpose, () => {
      throw error;
    });
  }
}
