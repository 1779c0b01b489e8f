import { assertInputSize, unrecognized } from '../json-reader.js';

/** One line of /proc/self/mountinfo (proc(5)). */
export interface MountEntry {
  /** "major:minor" of the mounted device; matches StackNode.deviceNumber. */
  readonly deviceNumber: string;
  readonly mountpoint: string;
  readonly filesystemType: string;
  readonly source: string;
  /** Per-mount options followed by the filesystem's super options, e.g. ["rw", "relatime", "discard"]. */
  readonly options: readonly string[];
}

/** Undoes the octal escapes the kernel writes for space, tab, newline and backslash. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * Parses /proc/self/mountinfo: "id parent major:minor root mountpoint options [optional…] - fstype source
 * superoptions". Throws TOOL_OUTPUT_UNRECOGNIZED for a line without the " - " separator.
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
    const [, , deviceNumber, , mountpoint, options] = fields;
    if (
      separator < 0 ||
      deviceNumber === undefined ||
      mountpoint === undefined ||
      options === undefined ||
      !/^\d+:\d+$/.test(deviceNumber)
    ) {
      throw unrecognized('/proc/self/mountinfo', `"${line.slice(0, 80)}" is not a mountinfo line`);
    }
    const [filesystemType = '', source = '', superOptions = ''] = fields.slice(separator + 1);
    entries.push({
      deviceNumber,
      mountpoint: unescape(mountpoint),
      filesystemType,
      source: unescape(source),
      options: [...options.split(','), ...superOptions.split(',')].filter((option) => option !== ''),
    });
  }
  return entries;
}
