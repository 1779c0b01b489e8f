/** One line of /proc/self/mountinfo: the parts encplan needs. */
export interface MountInfoEntry {
  /** "major:minor" of the mounted filesystem's device. */
  readonly deviceNumber: string;
  /** The folder of the filesystem that is mounted here: "/" for the filesystem itself, a subfolder for a bind mount. */
  readonly root: string;
  readonly mountPoint: string;
  readonly source: string;
}

function unescape(field: string): string {
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
        root: unescape(root),
        mountPoint: unescape(mountPoint),
        source: unescape(post[1] ?? ''),
      },
    ];
  });
}
