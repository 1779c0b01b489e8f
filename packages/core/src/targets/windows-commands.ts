import type { PlanCommand } from '../domain/plan-command.js';

/**
 * A Windows command of a plan, as a PowerShell line (`shell: "powershell"`). No secret is ever in argv: manage-bde
 * asks for a password at its prompt (`-Password` without a value) and prints the recovery password it generates
 * (`-RecoveryPassword` without a value) (Microsoft, "manage-bde on").
 */
export const powershell = (command: Omit<PlanCommand, 'shell'>): PlanCommand => ({
  ...command,
  shell: 'powershell',
});

/** Turns TRIM on for NTFS (Microsoft, "fsutil behavior": DisableDeleteNotify 0 = TRIM sent), whatever encrypts it. */
export function enableTrimCommand(): PlanCommand {
  return powershell({
    id: 'fsutil-enable-trim',
    purpose:
      'Let Windows send TRIM to SSDs (fsutil behavior set DisableDeleteNotify 0; run as administrator).',
    argv: ['fsutil', 'behavior', 'set', 'DisableDeleteNotify', '0'],
    risk: 'changes-settings',
    stdin: null,
  });
}
