import type { CpuCryptoFlags, Machine } from '../domain/cpu.js';
import { addWarning, attempt, type ProbeContext } from './probe-context.js';

/** What systeminformation guessed about a disk, beside what encplan read from sysfs. */
export interface DiskTypeCrossCheck {
  readonly device: string;
  readonly systeminformationType: string;
  readonly sysfsMediaKind: 'ssd' | 'hdd' | 'unknown';
  readonly agrees: boolean;
  readonly note: string;
}

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : 0;
}

/** CPU crypto flags from a flag list: x86 /proc/cpuinfo "flags" or ARM "Features" (aes, pmull). */
function cryptoFlagsFrom(flags: readonly string[]): CpuCryptoFlags {
  const set = new Set(flags.map((flag) => flag.toLowerCase()));
  return {
    aes: set.has('aes'),
    vaes: set.has('vaes'),
    carrylessMultiply: set.has('pclmulqdq') || set.has('pmull'),
    avx2: set.has('avx2'),
    avx512: set.has('avx512f'),
  };
}

/** The first "flags" (x86) or "Features" (ARM) line of /proc/cpuinfo, split into words. */
function parseCpuinfoFlags(cpuinfo: string): string[] | null {
  const line = cpuinfo.split('\n').find((candidate) => /^(flags|Features)\s*:/.test(candidate));
  return line === undefined
    ? null
    : line
        .slice(line.indexOf(':') + 1)
        .trim()
        .split(/\s+/);
}

/**
 * CPU, memory and OS from systeminformation, with the crypto flags checked against /proc/cpuinfo (the
 * kernel's own list wins where they disagree).
 */
export async function probeMachine(
  context: ProbeContext,
): Promise<{ machine: Machine | null; diskLayout: readonly Record<string, unknown>[] }> {
  const info = await attempt(context, 'systeminformation', 'Reading CPU and memory facts', () =>
    context.host.systemInfo(),
  );
  if (info === null) {
    return { machine: null, diskLayout: [] };
  }
  const siFlags = info.cpuFlags.split(/\s+/).filter((flag) => flag.length > 0);
  let flags = cryptoFlagsFrom(siFlags);
  let source = 'systeminformation cpuFlags()';
  const cpuinfo = context.host.platform === 'linux' ? await context.host.readText('/proc/cpuinfo') : null;
  const kernelFlags = cpuinfo === null ? null : parseCpuinfoFlags(cpuinfo);
  if (kernelFlags !== null) {
    const fromKernel = cryptoFlagsFrom(kernelFlags);
    if (JSON.stringify(fromKernel) !== JSON.stringify(flags)) {
      addWarning(context, {
        code: 'DATA_INCONSISTENT',
        message: `systeminformation and /proc/cpuinfo disagree about the CPU's crypto instructions; using /proc/cpuinfo.`,
        source: '/proc/cpuinfo',
      });
    }
    flags = fromKernel;
    source = '/proc/cpuinfo (systeminformation cross-checked)';
  }
  const cpu = info.cpu;
  return {
    machine: {
      cpuModel: `${text(cpu.manufacturer)} ${text(cpu.brand)}`.trim(),
      cpuVendor: text(cpu.vendor, 'unknown'),
      architecture: text(info.os.arch, 'unknown'),
      logicalCores: count(cpu.cores),
      physicalCores: count(cpu.physicalCores),
      cryptoFlags: flags,
      cryptoFlagsSource: source,
      memoryTotalBytes: count(info.mem.total),
      os: {
        platform: text(info.os.platform),
        distro: text(info.os.distro),
        release: text(info.os.release),
        kernel: text(info.os.kernel),
      },
    },
    diskLayout: info.diskLayout,
  };
}

/** Compares systeminformation's guess of a disk's type with the media kind encplan derived from sysfs. */
export function crossCheckDiskType(
  diskLayout: readonly Record<string, unknown>[],
  devicePath: string,
  media: { kind: 'ssd' | 'hdd' | 'unknown'; reason: string },
): DiskTypeCrossCheck | null {
  const entry = diskLayout.find((disk) => disk.device === devicePath);
  if (entry === undefined) {
    return null;
  }
  const guess = text(entry.type, 'unknown');
  const guessKind =
    guess === 'SSD' || guess === 'NVMe' ? 'ssd' : guess === 'HD' || guess === 'HDD' ? 'hdd' : 'unknown';
  const agrees = guessKind === media.kind;
  return {
    device: devicePath,
    systeminformationType: guess,
    sysfsMediaKind: media.kind,
    agrees,
    note: agrees
      ? 'systeminformation agrees with sysfs.'
      : `systeminformation says "${guess}"; encplan uses ${media.kind}: ${media.reason}`,
  };
}
