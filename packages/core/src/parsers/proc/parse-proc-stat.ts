/**
 * The start time of a process from the text of /proc/<pid>/stat: field 22, "starttime", in clock ticks since
 * boot (proc(5), "/proc/pid/stat"). Field 2 is the command name in parentheses and may itself hold spaces and
 * parentheses, so the fields are counted from the LAST ")". Null when the text does not have that shape.
 */
export function parseProcStartTime(text: string): string | null {
  const close = text.lastIndexOf(')');
  if (close < 0) {
    return null;
  }
  // After ") " come field 3 (state), 4 (ppid), …: field 22 is the 20th of them.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const startTime = fields[22 - 3];
  return startTime !== undefined && /^\d+$/.test(startTime) ? startTime : null;
}
