import { parseVersionBanner, VERSION_ARGUMENTS } from '../domain/tooling.js';
import { doctorDocument, type DoctorEnvelope } from '../contract/documents.js';
import { DEBIAN_PACKAGES, installHint, TOOL_NAMES, type Clock, type Host, type ToolName } from '../ports.js';
import { probeCapabilities } from '../probes/capabilities.js';
import { createProbeContext, tryRun } from '../probes/probe-context.js';

/** What each tool gives encplan, so `doctor` can say what a missing one costs. */
const TOOL_PURPOSES: Readonly<Record<ToolName, string>> = {
  lsblk: 'the disk, its partitions and the stack above it (required on Linux)',
  blkid: 'filesystem and partition-table signatures when udev has none',
  findmnt: 'mount options of filesystems (discard)',
  smartctl: 'SMART health, wear and TRIM capability',
  nvme: 'NVMe capacity, namespaces and health when smartctl is missing',
  hdparm: 'ATA TRIM capability and host protected area (HPA)',
  cryptsetup: 'LUKS headers, key-derivation and cipher benchmarks, LUKS2 test volumes',
  dmsetup: 'dm-crypt table options (allow_discards, workqueue flags)',
  fio: 'plain versus encrypted I/O benchmarks',
  openssl: 'cipher speed when the kernel crypto API is missing',
  veracrypt: 'VeraCrypt test volumes',
  fscrypt: 'fscrypt test directories (ext4 encryption)',
  'sedutil-cli': 'self-encrypting drive (TCG Opal) detection',
  systemctl: 'whether fstrim.timer trims regularly',
  losetup: 'loop devices for test volumes',
  mount: 'mounting test volumes',
  umount: 'unmounting test volumes',
  fuser: 'stopping what a killed benchmark left running on its scratch filesystem',
  'mkfs.ext4': 'filesystems on test volumes',
  tune2fs: 'enabling ext4 encryption on test volumes',
  sgdisk: 'printing partition layouts in plans',
  sfdisk: 'the partition table, for unallocated space',
  blkdiscard: 'trimming reserved space (destructive, only when asked)',
  fstrim: 'trimming mounted filesystems',
  diskutil: 'macOS disks and APFS volumes',
  hdiutil: 'macOS encrypted disk images',
  pkexec:
    "administrator rights for the desktop wizard's helper, through polkit (never the whole app as root)",
  system_profiler: 'macOS drives: TRIM support, internal or external, link, SMART status',
  sysctl: 'macOS CPU features (AES instructions)',
  fdesetup: 'whether FileVault is on or converting',
  powershell:
    'Windows disks, partitions, volumes, wear and temperature, BitLocker (Get-PhysicalDisk, Get-BitLockerVolume, …)',
  fsutil: 'whether Windows sends TRIM (DisableDeleteNotify)',
  'manage-bde': "BitLocker method and conversion state when PowerShell's BitLocker module is missing",
  diskspd: 'Windows I/O benchmarks with the four CrystalDiskMark profiles',
};

type Platform = Host['platform'];
const EVERYWHERE: readonly Platform[] = ['linux', 'darwin', 'win32', 'other'];

/** Where each tool is any use: doctor lists only these, so a Mac is not told it lacks lsblk. */
const TOOL_PLATFORMS: Readonly<Record<ToolName, readonly Platform[]>> = {
  ...(Object.fromEntries(TOOL_NAMES.map((tool) => [tool, ['linux']])) as unknown as Record<
    ToolName,
    readonly Platform[]
  >),
  smartctl: EVERYWHERE,
  fio: EVERYWHERE,
  openssl: ['linux', 'darwin', 'other'],
  veracrypt: EVERYWHERE,
  diskutil: ['darwin'],
  hdiutil: ['darwin'],
  system_profiler: ['darwin'],
  sysctl: ['darwin'],
  fdesetup: ['darwin'],
  powershell: ['win32'],
  fsutil: ['win32'],
  'manage-bde': ['win32'],
  diskspd: ['win32'],
};

/** A tool encplan did not find, as a person acts on it: what it gives encplan and the package to install. */
export interface MissingToolView {
  readonly tool: ToolName;
  /** What encplan does with it, i.e. what its absence costs. */
  readonly purpose: string;
  /** The Debian package that provides it (or where it comes from for tools outside Debian). */
  readonly debianPackage: string;
}

/** The {@link MissingToolView} of a tool name from an error or warning; null for a name encplan does not run. */
export function missingTool(name: unknown): MissingToolView | null {
  const tool = TOOL_NAMES.find((known) => known === name);
  return tool === undefined
    ? null
    : { tool, purpose: TOOL_PURPOSES[tool], debianPackage: DEBIAN_PACKAGES[tool] };
}

/** Lists which tools and kernel features are present and what each missing one costs. */
export async function doctor(environment: { host: Host; clock: Clock }): Promise<DoctorEnvelope> {
  const { host } = environment;
  const context = createProbeContext(host);
  const relevant = TOOL_NAMES.filter((tool) => TOOL_PLATFORMS[tool].includes(host.platform));
  const tools = [];
  for (const tool of relevant) {
    const path = await host.whichTool(tool);
    const args = VERSION_ARGUMENTS[tool];
    const output =
      path === null || args === undefined
        ? null
        : await tryRun(context, { tool, args, timeoutMs: 5000 }, `Asking ${tool} its version`);
    tools.push({
      tool,
      path,
      version: output === null ? null : parseVersionBanner(`${output.stdout}\n${output.stderr}`),
      purpose: TOOL_PURPOSES[tool],
      install: path === null ? installHint(tool, host.platform) : null,
    });
  }
  const capabilities = await probeCapabilities(host);
  return doctorDocument.ok({ tools, capabilities }, context.warnings, environment.clock.now());
}
