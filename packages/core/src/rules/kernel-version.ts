/** Major and minor of a `uname -r` string ("6.1.0-27-amd64" → [6, 1]); null when it does not start with N.N. */
export function parseKernelVersion(release: string | null): readonly [number, number] | null {
  const match = release === null ? null : /^(\d+)\.(\d+)/.exec(release);
  if (match === null) {
    return null;
  }
  return [Number(match[1]), Number(match[2])];
}

/** True/false when the release is known to be at least `major.minor`, null when it cannot be told. */
export function isKernelAtLeast(release: string | null, major: number, minor: number): boolean | null {
  const version = parseKernelVersion(release);
  if (version === null) {
    return null;
  }
  return version[0] > major || (version[0] === major && version[1] >= minor);
}
