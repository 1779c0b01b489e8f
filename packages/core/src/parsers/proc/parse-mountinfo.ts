/** One line of /proc/self/mountinfo: the parts encplan needs. */
export interface MountInfoEntry {
  /** "major:minor" of the mounted filesystem's device. */
  readonly deviceNumber: string;
  /** The folder of the filesystem that is mounted here: "/" for the filesystem itself, a subfolder for a bind mount. */
  readonly root: string;
  readonly mountPoint: string;
  readonly source: string;
}

/** Undoes the kernel's octal escapes of a mount table field. */
function unescapeMountField(field: string): string {
  // The kernel escapes space, tab, newline and backslash as \ooo octal (proc(5), "mountinfo").
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * Parses /proc/self/mountinfo (proc(5)): field 3 is major:minor, field 4 the root of the mount within its
 * filesystem, field 5 the mount point, and the mount source
 * follows the " - " separator after the optional fields. Lines that do not have this shape are skipped.
 */
export function parseMountInfo(text: string): MountInfoEntry[] {
  return text.split('\n').flatMap((line) => {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) {
      return [];
    }
    const fields = left.split(' ');
    const post = right.split(' ');
    const deviceNumber = fields[2];
    const root = fields[3];
    const mountPoint = fields[4];
    if (
      deviceNumber === undefined ||
      root === undefined ||
      mountPoint === undefined ||
      !/^\d+:\d+$/.test(deviceNumber)
    ) {
      return [];
    }
    return [
      {
        deviceNumber,
        root: unescapeMountField(root),
        mountPoint: unescapeMountField(mountPoint),
        source: unescapeMountField(post[1] ?? ''),
      },
    ];
  });
}

/** One line of /proc/self/mounts (fstab format, proc(5) "/proc/mounts"). */
export interface MountEntry {
  readonly source: string;
  readonly mountPoint: string;
  readonly fsType: string;
  readonly options: readonly string[];
}

/** Parses /proc/self/mounts: source, mount point, type, options (fstab(5) fields 1–4); other lines are skipped. */
export function parseProcMounts(text: string): MountEntry[] {
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
