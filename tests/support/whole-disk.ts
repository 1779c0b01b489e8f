import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';

/**
 * A whole disk with data that this user may read (as /dev/NAME), or undefined: a fixed disk first, loop devices
 * (others' too) come and go. Tests that answer for it with fake tools only read it (stat, sysfs).
 */
export function readableWholeDisk(): string | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  const names = readdirSync('/sys/block').sort((a, b) => Number(/^loop/.test(a)) - Number(/^loop/.test(b)));
  const name = names.find((candidate) => {
    try {
      accessSync(`/dev/${candidate}`, constants.R_OK);
      return (
        statSync(`/dev/${candidate}`).isBlockDevice() &&
        readFileSync(`/sys/block/${candidate}/size`, 'utf8').trim() !== '0'
      );
    } catch {
      return false;
    }
  });
  return name === undefined ? undefined : `/dev/${name}`;
}
