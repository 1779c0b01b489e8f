/**
 * The ports the use cases need. The world (processes, files, the clock) is reached only through these;
 * `core/src/node` implements them for real, and bundles implement them by replaying captures.
 */

/** Tools encplan may run. Spelled as the binary is. */
export const TOOL_NAMES = [
  'lsblk',
  'blkid',
  'findmnt',
  'smartctl',
  'nvme',
  'hdparm',
  'cryptsetup',
  'dmsetup',
  'fio',
  'openssl',
  'veracrypt',
  'fscrypt',
  'sedutil-cli',
  'systemctl',
  'losetup',
  'mount',
  'umount',
  'fuser',
  'mkfs.ext4',
  'tune2fs',
  'sgdisk',
  'sfdisk',
  'blkdiscard',
  'fstrim',
  'diskutil',
  'hdiutil',
  'pkexec',
  // macOS (issue 13)
  'system_profiler',
  'sysctl',
  'fdesetup',
  // Windows (issue 13)
  'powershell',
  'fsutil',
  'manage-bde',
  'diskspd',
] as const;

/** A tool encplan knows how to run. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** Debian packages that provide each tool, for the hint of TOOL_NOT_FOUND. */
export const DEBIAN_PACKAGES: Readonly<Record<ToolName, string>> = {
  lsblk: 'util-linux',
  blkid: 'util-linux',
  findmnt: 'util-linux',
  smartctl: 'smartmontools',
  nvme: 'nvme-cli',
  hdparm: 'hdparm',
  cryptsetup: 'cryptsetup-bin',
  dmsetup: 'dmsetup',
  fio: 'fio',
  openssl: 'openssl',
  veracrypt: 'veracrypt (from veracrypt.fr)',
  fscrypt: 'fscrypt',
  'sedutil-cli': 'sedutil (from the Drive Trust Alliance)',
  systemctl: 'systemd',
  losetup: 'mount',
  mount: 'mount',
  umount: 'mount',
  fuser: 'psmisc',
  'mkfs.ext4': 'e2fsprogs',
  tune2fs: 'e2fsprogs',
  sgdisk: 'gdisk',
  sfdisk: 'fdisk',
  blkdiscard: 'util-linux',
  fstrim: 'util-linux',
  diskutil: 'macOS',
  hdiutil: 'macOS',
  pkexec: 'pkexec (polkit)',
  // Not Debian packages: the platform's own tools (the hint names where they come from).
  system_profiler: 'macOS',
  sysctl: 'macOS',
  fdesetup: 'macOS',
  powershell: 'Windows',
  fsutil: 'Windows',
  'manage-bde': 'Windows',
  diskspd: 'DiskSpd (from github.com/microsoft/diskspd)',
};

/**
 * Where a tool comes from on macOS and Windows, for the hint of TOOL_NOT_FOUND there (a Mac is never told to
 * apt-get). Homebrew formulae and casks (formulae.brew.sh: smartmontools, fio, openssl@3, cask veracrypt, which
 * needs macFUSE); Windows installers from each project (smartmontools.org; fio's MSI packages on
 * github.com/axboe/fio releases; veracrypt.fr; DiskSpd on github.com/microsoft/diskspd).
 */
const INSTALL_ELSEWHERE: Readonly<Record<'darwin' | 'win32', Partial<Record<ToolName, string>>>> = {
  darwin: {
    smartctl: 'brew install smartmontools',
    fio: 'brew install fio',
    openssl: 'brew install openssl@3',
    veracrypt: 'brew install --cask veracrypt (it needs macFUSE)',
  },
  win32: {
    smartctl: 'the smartmontools Windows installer from smartmontools.org',
    fio: "fio's Windows installer (fio-VERSION-x64.msi) from github.com/axboe/fio releases",
    openssl: 'an OpenSSL build for Windows',
    veracrypt: 'the VeraCrypt installer from veracrypt.fr',
    diskspd: 'DiskSpd from github.com/microsoft/diskspd (releases)',
  },
};

/** How to get a missing tool on the platform that missed it, as the sentence after "…is not installed.". */
export function installHint(tool: ToolName, platform: Host['platform']): string {
  if (platform === 'darwin' || platform === 'win32') {
    const source = INSTALL_ELSEWHERE[platform][tool];
    const system = platform === 'darwin' ? 'macOS' : 'Windows';
    if (source !== undefined) {
      return `Install it: ${source}.`;
    }
    return DEBIAN_PACKAGES[tool] === system
      ? `It is part of ${system}; check PATH.`
      : `encplan does not use it on ${system}.`;
  }
  // "veracrypt (from veracrypt.fr)" is not in Debian; "pkexec (polkit)" is the package pkexec.
  const outside = /^(\S+) \(from (.+)\)$/.exec(DEBIAN_PACKAGES[tool]);
  return outside === null
    ? `Install it, e.g. apt-get install ${DEBIAN_PACKAGES[tool].split(' ')[0] ?? tool}.`
    : `Install it: ${outside[1] ?? tool} from ${outside[2] ?? ''}.`;
}

/** One process to run: an argument array, never a command string. */
export interface CommandSpec {
  readonly tool: ToolName;
  /** Arguments after the tool name. Device paths go after `--` where the tool accepts it. */
  readonly args: readonly string[];
  /** Required: every call site decides how long its tool may take. */
  readonly timeoutMs: number;
  /** Written to the child's stdin, then closed. Passphrases go here, never in `args`; never recorded. */
  readonly stdin?: string;
  /** Extra environment variables on top of the runner's fixed `LC_ALL=C` environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Cap on stdout + stderr in bytes; the runner's default applies when absent. */
  readonly maxOutputBytes?: number;
}

/** What a finished process gave back. A non-zero `exitCode` is data, not an error. */
export interface CommandOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/**
 * Runs one process. Throws an `EncplanError` only when no exit status could be obtained:
 * TOOL_NOT_FOUND, PERMISSION_DENIED, TOOL_TIMED_OUT, CANCELLED or TOOL_OUTPUT_TOO_LARGE.
 */
export type RunCommand = (spec: CommandSpec, signal?: AbortSignal) => Promise<CommandOutput>;

/** The kind of thing at a path, as `stat` (following links) sees it. */
export type PathKind = 'block-device' | 'character-device' | 'file' | 'directory' | 'other';

/** The part of `stat(2)` encplan uses. */
export interface PathStat {
  readonly kind: PathKind;
  /** For devices: the device number they are, as "major:minor". */
  readonly deviceNumber: string | null;
  /** The device number of the filesystem that holds the path, as "major:minor". */
  readonly containingDeviceNumber: string;
  readonly sizeBytes: number;
  /** Whether this process may open the path for reading. */
  readonly readable: boolean;
}

/** CPU, memory and OS as systeminformation reports them. Kept raw here; parsers interpret them. */
export interface SystemInfoSnapshot {
  readonly cpu: Readonly<Record<string, unknown>>;
  readonly cpuFlags: string;
  readonly mem: Readonly<Record<string, unknown>>;
  readonly os: Readonly<Record<string, unknown>>;
  readonly diskLayout: readonly Readonly<Record<string, unknown>>[];
}

/**
 * Read-only access to the host: processes, files under /sys, /proc, /dev and /etc, and system facts.
 * Every method is recorded when collecting and replayed from a bundle.
 */
export interface Host {
  readonly platform: 'linux' | 'darwin' | 'win32' | 'other';
  readonly run: RunCommand;
  /** The file's text, or null when it does not exist. Throws PERMISSION_DENIED when unreadable. */
  readText(path: string): Promise<string | null>;
  /** The entries of a directory, sorted, or null when it does not exist. */
  listDir(path: string): Promise<readonly string[] | null>;
  /** The canonical path with links resolved, or null when it does not exist. */
  realPath(path: string): Promise<string | null>;
  /** `stat` of the path (following links), or null when it does not exist. */
  stat(path: string): Promise<PathStat | null>;
  /** The absolute path of a tool, or null when it is not installed. */
  whichTool(tool: ToolName): Promise<string | null>;
  /** CPU, memory, OS (systeminformation). */
  systemInfo(): Promise<SystemInfoSnapshot>;
  /** The working directory the user ran encplan from. */
  readonly cwd: string;
  /** Whether encplan runs as root (or Administrator): raw device reads, SMART and LUKS headers need it. */
  readonly privileged: boolean;
  /** What changes the benchmark makes and the facts it needs; recorded when collecting, answered (never done) on replay. */
  readonly effects: HostEffects;
}

/** Who this run is, for naming what it creates: `encplan-bench-<pid>-<nonce>`. */
export interface RunIdentity {
  readonly pid: number;
  /** Random hex, so two runs of one process never share a name. */
  readonly nonce: string;
  /** The system temp directory (for work directories of raw-device runs). */
  readonly tempDirectory: string;
  /** Where state files of runs go: /run/encplan for root, else under the temp directory. */
  readonly stateDirectory: string;
  readonly startedAt: string;
  /**
   * The PID namespace the pid is valid in (readlink /proc/self/ns/pid, e.g. "pid:[4026531836]"; namespaces(7));
   * null or absent where there is none to read (macOS, Windows). With the start time it lets `encplan cleanup`
   * prove a run dead instead of guessing from a pid that another container or a new process may hold.
   */
  readonly pidNamespace?: string | null;
  /** Field 22 of /proc/self/stat (start time in clock ticks since boot; proc(5)); null or absent where unknown. */
  readonly processStartTime?: string | null;
}

/** How a new file is filled. Random content is made on the host and never leaves it (keys). */
export type NewFileContent =
  | { readonly kind: 'sparse'; readonly sizeBytes: number }
  | { readonly kind: 'random'; readonly sizeBytes: number };

/**
 * The host operations that change things, plus the few facts only the live system knows (free space, whether
 * O_DIRECT works, whether a pid lives, the monotonic clock). Every call is recorded by the recording host;
 * the replay host answers from the record and performs nothing. Errors are `EncplanError`s.
 */
export interface HostEffects {
  runIdentity(): Promise<RunIdentity>;
  /** Milliseconds on a monotonic clock (for durations). */
  monotonicMs(): Promise<number>;
  /** mkdir; `recursive` also makes parents and accepts an existing directory. */
  makeDirectory(
    path: string,
    options: { readonly mode: number; readonly recursive?: boolean },
  ): Promise<void>;
  /** Creates a new file (fails when it exists) with the given mode and content. */
  createFile(
    path: string,
    options: { readonly mode: number; readonly content: NewFileContent },
  ): Promise<void>;
  /** Replaces a file's text atomically (write a temporary file, rename). */
  writeTextAtomic(path: string, text: string, mode: number): Promise<void>;
  /** Removes a file, or a directory with everything in it when `recursive`. Missing is not an error. */
  remove(path: string, options: { readonly recursive: boolean }): Promise<void>;
  /** Bytes available to unprivileged writers on the filesystem holding `path` (statfs bavail × bsize). */
  freeBytes(path: string): Promise<number>;
  /** Whether files in `directory` can be opened with O_DIRECT (tmpfs cannot). */
  directIoAllowed(directory: string): Promise<boolean>;
  /** Whether a process with this pid exists. */
  processAlive(pid: number): Promise<boolean>;
}

/** The clock, injected so that reports and snapshots are deterministic in tests. */
export interface Clock {
  now(): Date;
}
