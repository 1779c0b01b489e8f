import type { Host } from '@encplan/core';
import type { FakeTools } from './fake-tools.js';

/**
 * The host, with /proc/self/mountinfo showing what the fake `mount` of `fakes` mounted and the fake `umount`
 * has not unmounted yet (`mount -- SOURCE POINT`, `umount -- POINT`): the mount-source checks of the benchmark
 * then see the filesystems the run asked for, as on a real system.
 */
export function withFakeMounts(host: Host, fakes: FakeTools): Host {
  return {
    ...host,
    async readText(file) {
      if (file !== '/proc/self/mountinfo') {
        return host.readText(file);
      }
      const mounted = new Map<string, string>();
      for (const call of await fakes.calls()) {
        const [separator, first, second] = call.argv;
        if (separator !== '--' || first === undefined) {
          continue;
        }
        if (call.tool === 'mount' && second !== undefined) {
          mounted.set(second, first);
        } else if (call.tool === 'umount') {
          mounted.delete(first);
        }
      }
      const real = (await host.readText(file)) ?? '';
      const fake = [...mounted].map(
        ([point, source], index) => `${9000 + index} 1 0:0 / ${point} rw,relatime - ext4 ${source} rw\n`,
      );
      return real + fake.join('');
    },
  };
}
