import { EncplanError } from '../../errors.js';
import type { CommandSpec } from '../../ports.js';
import { powershellScript } from '../container-steps.js';
import { outcome, runQuiet, teardownOf, type ResourceTeardown } from '../teardown-steps.js';

/** Refuses anything but an absolute .vhdx path without quotes, so it is one verbatim PowerShell string. */
export function assertVhdPath(path: string): void {
  if (!/^[A-Za-z]:\\[^"'<>|?*\r\n]+\.vhdx$/.test(path)) {
    throw new EncplanError('INVALID_ARGUMENT', `The test volume must be an absolute .vhdx path: ${path}`);
  }
}

/** Detaches a test VHDX (Microsoft, "Dismount-DiskImage"; a detached image is not an error to ask about). */
function dismountVhd(vhdPath: string): CommandSpec {
  assertVhdPath(vhdPath);
  return powershellScript(`Dismount-DiskImage -ImagePath '${vhdPath}' | Out-Null`, 60_000);
}

/** What a BitLocker test volume leaves to tear down: its attached VHDX (the file itself is a shared `file`). */
export const BITLOCKER_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('vhd', async (resource, { host }) => {
    const spec = dismountVhd(resource.path);
    const result = await runQuiet(host, spec.tool, [...spec.args]);
    return result.ok ? outcome('removed') : outcome('failed', result.message);
  }),
];
