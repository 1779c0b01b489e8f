import { EncplanError } from '../../errors.js';
import type { CommandOutput } from '../../ports.js';
import type { PrivilegeStatus } from '../../use-cases/ui-services.js';
import type { Runner } from '../process/run-command.js';

/**
 * The polkit action encplan's helper runs under; packages/desktop/resources/org.encplan.helper.policy
 * declares it with `org.freedesktop.policykit.exec.path` set to the installed helper.
 */
export const POLKIT_ACTION_ID = 'org.encplan.helper';

/**
 * pkexec(1) "RETURN VALUE": 127 when the caller is not authorized or authorization could not be obtained,
 * 126 when the user dismissed the authentication dialog; otherwise the helper's own exit status.
 */
const PKEXEC_NOT_AUTHORIZED = 127;
const PKEXEC_DISMISSED = 126;

/**
 * Says how root-needing work can run here: the app itself is root (a server run by root), pkexec is
 * installed, or neither; in that last case the reason is a sentence the wizard shows as is.
 */
export async function detectPrivilege(
  runner: Pick<Runner, 'resolveTool'>,
  userId: number | null,
): Promise<PrivilegeStatus> {
  if (userId === 0) {
    return { method: 'already-root', available: true, reason: null };
  }
  if (userId === null) {
    return {
      method: 'none',
      available: false,
      reason:
        'This platform has no pkexec; run encplan from an administrator shell for SMART and benchmarks.',
    };
  }
  const pkexec = await runner.resolveTool('pkexec');
  return pkexec === null
    ? {
        method: 'none',
        available: false,
        reason:
          'pkexec (polkit) is not installed, so encplan cannot ask for administrator rights. Install it (apt-get install pkexec) or run `sudo encplan assess` in a terminal.',
      }
    : { method: 'pkexec', available: true, reason: null };
}

/**
 * Runs the privileged helper through pkexec: only the helper runs as root, never the app. `helperPath`
 * must be absolute (pkexec refuses relative programs and matches it against the policy's exec.path);
 * arguments go as an array, never through a shell. pkexec's own refusal becomes PERMISSION_DENIED.
 */
export async function runPrivilegedHelper(
  runner: Pick<Runner, 'run'>,
  helperPath: string,
  args: readonly string[],
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
): Promise<CommandOutput> {
  if (!helperPath.startsWith('/')) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The privileged helper path must be absolute, got ${helperPath}.`,
    );
  }
  // --disable-internal-agent: answer through the desktop's polkit agent, never a text prompt on our stdin.
  const output = await runner.run(
    { tool: 'pkexec', args: ['--disable-internal-agent', helperPath, ...args], timeoutMs: options.timeoutMs },
    options.signal,
  );
  if (output.exitCode === PKEXEC_NOT_AUTHORIZED || output.exitCode === PKEXEC_DISMISSED) {
    throw new EncplanError(
      'PERMISSION_DENIED',
      'Administrator rights were not granted for the encplan helper.',
      {
        hint: 'Approve the system password dialog, or run `sudo encplan assess` in a terminal.',
        details: { exitCode: output.exitCode, stderr: output.stderr.slice(-2000) },
      },
    );
  }
  return output;
}
