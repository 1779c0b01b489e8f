import type { CpuCryptoFlags, CpuMitigations, Machine } from '../domain/cpu.js';
import {
  CPU_VULNERABILITIES_DIRECTORY,
  parseCpuMitigations,
} from '../parsers/cpu-vulnerabilities/cpu-vulnerabilities.js';
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

/** The value of the first `key : value` line of /proc/cpuinfo with this key, or null. */
function cpuinfoValue(cpuinfo: string, key: string): string | null {
  const line = cpuinfo.split('\n').find((candidate) => candidate.split(':')[0]?.trim() === key);
  return line === undefined ? null : line.slice(line.indexOf(':') + 1).trim();
}

/**
 * Logical and physical cores from /proc/cpuinfo: one "processor" block per logical CPU; physical cores are the
 * distinct (physical id, core id) pairs (x86, proc(5)); where the kernel prints no core ids (ARM), every
 * logical CPU counts as a core.
 */
export function coresFromCpuinfo(cpuinfo: string): { logical: number; physical: number } {
  const blocks = cpuinfo.split(/\n\s*\n/).filter((block) => /^processor\s*:/m.test(block));
  const pairs = new Set<string>();
  for (const block of blocks) {
    const socket = cpuinfoValue(block, 'physical id');
    const core = cpuinfoValue(block, 'core id');
    if (socket !== null && core !== null) {
      pairs.add(`${socket}:${core}`);
    }
  }
  return { logical: blocks.length, physical: pairs.size === 0 ? blocks.length : pairs.size };
}

/** MemTotal of /proc/meminfo in bytes (the kernel prints kB, meaning KiB: fs/proc/meminfo.c), or null. */
export function memTotalBytes(meminfo: string): number | null {
  const match = /^MemTotal:\s+(\d+)\s+kB/m.exec(meminfo);
  return match?.[1] === undefined ? null : Number(match[1]) * 1024;
}

/** NAME and VERSION_ID of os-release(5) (quotes removed), '' where absent. */
export function parseOsRelease(text: string): { distro: string; release: string } {
  const value = (key: string): string => {
    const match = new RegExp(`^${key}=(.*)$`, 'm').exec(text);
    return (match?.[1] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
  };
  return { distro: value('NAME'), release: value('VERSION_ID') };
}

/** The kernel's machine name (uname -m) in Node's spelling, as systeminformation reported it before. */
function nodeArchitecture(machine: string): string {
  const names: Readonly<Record<string, string>> = {
    x86_64: 'x64',
    i686: 'ia32',
    i386: 'ia32',
    aarch64: 'arm64',
    armv7l: 'arm',
    ppc64le: 'ppc64',
    s390x: 's390x',
    riscv64: 'riscv64',
  };
  return names[machine] ?? machine;
}

/**
 * The CPU-vulnerability mitigations in effect: every file of /sys/devices/system/cpu/vulnerabilities
 * (Documentation/ABI/testing/sysfs-devices-system-cpu; one file per issue, Documentation/admin-guide/hw-vuln/)
 * and `mitigations=` of /proc/cmdline, read through the Host (recorded in bundles, replayed by assess --bundle).
 */
async function probeCpuMitigations(context: ProbeContext): Promise<CpuMitigations> {
  const { host } = context;
  const purpose = 'Reading the CPU-vulnerability mitigations';
  const names = await attempt(context, CPU_VULNERABILITIES_DIRECTORY, purpose, () =>
    host.listDir(CPU_VULNERABILITIES_DIRECTORY),
  );
  const texts = await Promise.all(
    (names ?? []).map(async (name) => {
      const path = `${CPU_VULNERABILITIES_DIRECTORY}/${name}`;
      return [name, await attempt(context, path, purpose, () => host.readText(path))] as const;
    }),
  );
  const files = new Map<string, string>();
  for (const [name, text] of texts) {
    if (text !== null) {
      files.set(name, text);
    }
  }
  const commandLine = await attempt(context, '/proc/cmdline', purpose, () => host.readText('/proc/cmdline'));
  return parseCpuMitigations(
    names === null ? null : files,
    commandLine,
    names === null
      ? `${CPU_VULNERABILITIES_DIRECTORY} could not be read: a kernel before 4.15, an architecture without it, or a bundle collected before encplan read it`
      : `no file of ${CPU_VULNERABILITIES_DIRECTORY} could be read`,
  );
}

/**
 * CPU, memory and OS of a Linux machine from the kernel's own files, without starting a process:
 * /proc/cpuinfo (model, vendor, cores, crypto flags), /proc/meminfo, /etc/os-release and
 * /proc/sys/kernel/{osrelease,arch}. Null when /proc/cpuinfo or /proc/meminfo is missing (a bundle
 * collected before encplan read them: its systeminformation capture answers instead).
 */
async function machineFromProc(context: ProbeContext): Promise<Machine | null> {
  const { host } = context;
  const read = (path: string) =>
    attempt(context, path, 'Reading CPU and memory facts', () => host.readText(path));
  const [cpuinfo, meminfo, etcOsRelease, osrelease, arch] = await Promise.all([
    read('/proc/cpuinfo'),
    read('/proc/meminfo'),
    read('/etc/os-release'),
    read('/proc/sys/kernel/osrelease'),
    read('/proc/sys/kernel/arch'),
  ]);
  const memory = meminfo === null ? null : memTotalBytes(meminfo);
  if (cpuinfo === null || memory === null) {
    return null;
  }
  // os-release(5): /etc/os-release, else /usr/lib/os-release.
  const osRelease = etcOsRelease ?? (await read('/usr/lib/os-release'));
  const flags = parseCpuinfoFlags(cpuinfo) ?? [];
  const cores = coresFromCpuinfo(cpuinfo);
  const { distro, release } = parseOsRelease(osRelease ?? '');
  // systeminformation's spelling of the x86 vendor strings (CPUID leaf 0), kept so reports read as before.
  const vendorNames: Readonly<Record<string, string>> = { AuthenticAMD: 'AMD', GenuineIntel: 'Intel' };
  const vendorId = cpuinfoValue(cpuinfo, 'vendor_id') ?? cpuinfoValue(cpuinfo, 'CPU implementer');
  const vendor = vendorId === null ? null : (vendorNames[vendorId] ?? vendorId);
  return {
    cpuModel: cpuinfoValue(cpuinfo, 'model name') ?? cpuinfoValue(cpuinfo, 'Hardware') ?? '',
    cpuVendor: vendor ?? 'unknown',
    architecture: arch === null ? 'unknown' : nodeArchitecture(arch.trim()),
    logicalCores: cores.logical,
    physicalCores: cores.physical,
    cryptoFlags: cryptoFlagsFrom(flags),
    cryptoFlagsSource: '/proc/cpuinfo',
    memoryTotalBytes: memory,
    os: { platform: 'linux', distro, release, kernel: osrelease?.trim() ?? '' },
    mitigations: await probeCpuMitigations(context),
  };
}

/**
 * CPU, memory and OS. On Linux from /proc and /etc (no process: issue 18); elsewhere, and when replaying a
 * bundle collected before encplan read those files, from systeminformation with the crypto flags checked
 * against /proc/cpuinfo (the kernel's own list wins where they disagree).
 */
export async function probeMachine(
  context: ProbeContext,
): Promise<{ machine: Machine | null; diskLayout: readonly Record<string, unknown>[] }> {
  if (context.host.platform === 'linux') {
    const machine = await machineFromProc(context);
    if (machine !== null) {
      return { machine, diskLayout: [] };
    }
  }
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
