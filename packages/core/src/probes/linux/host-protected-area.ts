import type { Disk } from '../../domain/device.js';
import type { HostProtectedArea } from '../../domain/space.js';
import { parseHdparmNativeMax } from '../../parsers/hdparm/parse-hdparm-native-max.js';
import { addWarning, attempt, tryRun, type ProbeContext } from '../probe-context.js';

/** Transports where an ATA host protected area can exist (directly or through a SAT bridge). */
const ATA_TRANSPORTS: ReadonlySet<Disk['transport']> = new Set(['sata', 'ata', 'sas', 'usb', 'scsi']);

/**
 * Reads an ATA host protected area with `hdparm -N` (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create: one way to reserve spare area).
 * Only for ATA-like transports; null when hdparm is missing, refuses, or the device does not answer.
 */
export async function probeHostProtectedArea(
  context: ProbeContext,
  disk: Disk,
): Promise<HostProtectedArea | null> {
  if (!ATA_TRANSPORTS.has(disk.transport)) {
    return null;
  }
  const output = await tryRun(
    context,
    { tool: 'hdparm', args: ['-N', '--', disk.path], timeoutMs: 15_000 },
    'Reading the host protected area',
  );
  if (output === null) {
    return null;
  }
  if (output.exitCode !== 0) {
    addWarning(context, {
      code: 'TOOL_FAILED',
      message: `hdparm -N ${disk.path} failed (${output.stderr.trim() || `exit ${output.exitCode}`}); the host protected area is unknown.`,
      source: 'hdparm',
    });
    return null;
  }
  return attempt(context, 'hdparm', 'Reading the host protected area', () =>
    Promise.resolve(parseHdparmNativeMax(output.stdout, disk.logicalSectorBytes)),
  );
}
