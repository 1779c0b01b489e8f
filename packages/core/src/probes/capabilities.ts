import type { Capability } from '../domain/capabilities.js';
import type { Host } from '../ports.js';

/**
 * Checks the kernel and platform features encplan's probes and benchmarks need, each with the evidence
 * read and what is lost without it. Reads only /proc, /sys and /dev entries; never changes anything.
 */
export async function probeCapabilities(host: Host): Promise<Capability[]> {
  if (host.platform !== 'linux') {
    return [
      {
        id: 'root',
        present: host.privileged,
        evidence: host.privileged ? 'running as an administrator' : 'running as a normal user',
        costWhenMissing: 'Raw device reads, SMART and encrypted test volumes need administrator rights.',
      },
    ];
  }
  const [misc, protocols, loopControl, ext4Encryption, udevData] = await Promise.all([
    host.readText('/proc/misc'),
    host.readText('/proc/net/protocols'),
    host.stat('/dev/loop-control'),
    host.stat('/sys/fs/ext4/features/encryption'),
    host.stat('/run/udev/data'),
  ]);
  const deviceMapper = misc?.split('\n').some((line) => line.trim().endsWith(' device-mapper')) === true;
  // AF_ALG registers the "ALG" protocol once algif_* is loaded (crypto/af_alg.c); cryptsetup benchmark
  // needs it for cipher rows (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c).
  const afAlg = protocols?.split('\n').some((line) => line.startsWith('ALG ')) === true;
  return [
    {
      id: 'root',
      present: host.privileged,
      evidence: host.privileged ? 'effective uid 0' : 'not uid 0',
      costWhenMissing:
        'Without root: no partition-table signatures from blkid, no SMART, no LUKS headers, no loop devices or encrypted test volumes.',
    },
    {
      id: 'device-mapper',
      present: deviceMapper,
      evidence: deviceMapper ? '/proc/misc lists device-mapper' : '/proc/misc has no device-mapper entry',
      costWhenMissing:
        'cryptsetup open fails: no LUKS2 or VeraCrypt kernel-crypto test volume, so no measured dm-crypt overhead (fscrypt is used where available).',
    },
    {
      id: 'kernel-crypto-user-api',
      present: afAlg,
      evidence: afAlg
        ? '/proc/net/protocols lists ALG'
        : '/proc/net/protocols has no ALG entry (AF_ALG not loaded or not built)',
      costWhenMissing:
        'cryptsetup benchmark prints no cipher rows; cipher speed is measured with openssl speed instead (user-space, an upper bound for the kernel).',
    },
    {
      id: 'loop-devices',
      present: loopControl !== null,
      evidence: loopControl === null ? '/dev/loop-control is missing' : '/dev/loop-control exists',
      costWhenMissing:
        'No scratch block devices: encrypted-volume benchmarks and the integration tests cannot run.',
    },
    {
      id: 'ext4-encryption',
      present: ext4Encryption !== null,
      evidence:
        ext4Encryption === null
          ? '/sys/fs/ext4/features/encryption is missing'
          : '/sys/fs/ext4/features/encryption exists',
      costWhenMissing: 'No fscrypt benchmark backend (ext4 with the encrypt feature).',
    },
    {
      id: 'udev',
      present: udevData !== null,
      evidence: udevData === null ? '/run/udev/data is missing (no udev database)' : '/run/udev/data exists',
      costWhenMissing:
        'lsblk cannot read filesystem and partition-table types from udev; encplan asks blkid directly instead (needs root).',
    },
  ];
}
