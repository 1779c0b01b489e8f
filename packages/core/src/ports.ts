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
}

/** The clock, injected so that reports and snapshots are deterministic in tests. */
export interface Clock {
  now(): Date;
}
