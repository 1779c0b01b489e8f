import { assertInputSize, unrecognized } from '../json-reader.js';

/** One line of /proc/self/mountinfo (proc(5)): the one parse the probes, the plan and the benchmarks read. */
export interface MountEntry {
  /** "major:minor" of the mounted device; matches StackNode.deviceNumber. */
  readonly deviceNumber: string;
  /** The folder of the filesystem that is mounted here: "/" for the filesystem itself, a subfolder for a bind mount. */
  readonly root: string;
  readonly mountPoint: string;
  readonly filesystemType: string;
  readonly source: string;
  /** Per-mount options followed by the filesystem's super options, e.g. ["rw", "relatime", "discard"]. */
  readonly options: readonly string[];
}

/** Undoes the kernel's octal escapes of a mount table field: space, tab, newline and backslash (proc(5)). */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * Parses /proc/self/mountinfo: "id parent major:minor root mountpoint options [optional…] - fstype source
 * superoptions" (proc(5)). Throws TOOL_OUTPUT_UNRECOGNIZED for a line without the " - " separator.
 */
export function parseMountinfo(text: string): MountEntry[] {
  assertInputSize('/proc/self/mountinfo', text);
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    const [, , deviceNumber, root, mountPoint, options] = fields;
    if (
      separator < 0 ||
      deviceNumber === undefined ||
      root === undefined ||
      mountPoint === undefined ||
      options === undefined ||
      !/^\d+:\d+$/.test(deviceNumber)
    ) {
      throw unrecognized('/proc/self/mountinfo', `"${line.slice(0, 80)}" is not a mountinfo line`);
    }
    const [filesystemType = '', source = '', superOptions = ''] = fields.slice(separator + 1);
    entries.push({
      deviceNumber,
      root: unescapeMountField(root),
      mountPoint: unescapeMountField(mountPoint),
      filesystemType,
      source: unescapeMountField(source),
      options: [...options.split(','), ...superOptions.split(',')].filter((option) => option !== ''),
    });
  }
  return entries;
}

/** One line of /proc/self/mounts (fstab format, proc(5) "/proc/mounts"). */
export interface ProcMountEntry {
  readonly source: string;
  readonly mountPoint: string;
  readonly fsType: string;
  readonly options: readonly string[];
}

/** Parses /proc/self/mounts: source, mount point, type, options (fstab(5) fields 1–4); other lines are skipped. */
export function parseProcMounts(text: string): ProcMountEntry[] {
  return text.split('\n').flatMap((line) => {
    const [source, mountPoint, fsType, options] = line.split(' ');
    if (source === undefined || mountPoint === undefined || fsType === undefined || options === undefined) {
      return [];
    }
    return [
      {
        source: unescapeMountField(source),
        mountPoint: unescapeMountField(mountPoint),
        fsType,
        options: options.split(','),
      },
    ];
  });
}
