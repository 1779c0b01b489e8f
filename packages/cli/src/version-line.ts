/**
 * The one version string of encplan, for `encplan --version`, `-v` and `encplan version` alike (oclif's
 * "name/version platform-arch node-version" shape, with the product's name rather than the package's).
 * Dependency-free: bin/run.js loads it before oclif or the core.
 */
export function versionLine(version: string): string {
  return `encplan/${version} ${process.platform}-${process.arch} node-${process.version}`;
}
