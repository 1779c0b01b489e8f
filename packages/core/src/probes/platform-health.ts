import { assessHealth } from '../analyses/health.js';
import type { DriveHealth } from '../domain/storage-model.js';
import { parseSmartctlJson } from '../parsers/smartctl/smartctl-json.js';
import { attempt, tryRun, type ProbeContext } from './probe-context.js';

/** `smartctl -x` reads several logs; 60 s as the Linux health probe allows. */
const SMARTCTL_TIMEOUT_MS = 60_000;

/** smartctl's verdict on macOS (NVMe through IOKit) or Windows, or null when smartctl is missing or failed. */
export async function smartctlHealth(context: ProbeContext, devicePath: string): Promise<DriveHealth | null> {
  if ((await context.host.whichTool('smartctl')) === null) {
    return null;
  }
  const output = await tryRun(
    context,
    { tool: 'smartctl', args: ['--json=v', '-x', '--', devicePath], timeoutMs: SMARTCTL_TIMEOUT_MS },
    `Reading SMART data of ${devicePath}`,
  );
  if (output === null) {
    return null;
  }
  const report = await attempt(context, 'smartctl', `Reading SMART data of ${devicePath}`, () =>
    Promise.resolve(parseSmartctlJson(output.stdout, output.exitCode)),
  );
  if (report === null) {
    return null;
  }
  const health = assessHealth(report.facts);
  return {
    verdict: health.verdict,
    source: 'smartctl',
    statusOnly: false,
    status: health.verdict,
    wearPercent: health.percentageUsed,
    temperatureCelsius: health.temperatureCelsius,
    powerOnHours: health.powerOnHours,
    mediaErrors: null,
    note: "smartctl read the drive's own health logs.",
  };
}

/**
 * A verdict from a SMART status alone (diskutil/system_profiler "Verified"/"Failing", Windows
 * HealthStatus "Healthy"/"Warning"/"Unhealthy"): the drive's pass/fail bit, without attributes or wear
 * logs, so the note says it is the weaker source.
 */
export function statusOnlyHealth(
  status: string | null,
  source: DriveHealth['source'],
  extra: Partial<
    Pick<DriveHealth, 'wearPercent' | 'temperatureCelsius' | 'powerOnHours' | 'mediaErrors'>
  > = {},
): DriveHealth {
  const word = status?.trim().toLowerCase() ?? null;
  const verdict =
    word === 'verified' || word === 'healthy'
      ? 'healthy'
      : word === 'failing' || word === 'unhealthy'
        ? 'failing'
        : word === 'warning'
          ? 'warning'
          : 'unknown';
  return {
    verdict,
    source: status === null ? null : source,
    statusOnly: true,
    status,
    wearPercent: extra.wearPercent ?? null,
    temperatureCelsius: extra.temperatureCelsius ?? null,
    powerOnHours: extra.powerOnHours ?? null,
    mediaErrors: extra.mediaErrors ?? null,
    note:
      status === null
        ? "No health source answered: install smartctl (smartmontools) for the drive's health logs."
        : `Only the drive's SMART status (${status}) from ${String(source)}: a weaker source than smartctl, which reads wear and error logs. Install smartmontools for those.`,
  };
}
