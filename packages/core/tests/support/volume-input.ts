import type { VolumeCommandInput } from '../../src/targets/target.js';

/**
 * A target's volume command input (targets/target.ts VolumeCommandInput) for /dev/sdb1 on Linux: AES-XTS-512,
 * 4096-byte sectors, discards on, cryptsetup's default keyslot, workqueues kept and no VeraCrypt settings; a test
 * changes what it needs.
 */
export function volumeInput(changes: Partial<VolumeCommandInput> = {}): VolumeCommandInput {
  return {
    platform: 'linux',
    devicePath: '/dev/sdb',
    volumePath: '/dev/sdb1',
    stage: undefined,
    label: 'encplan',
    mappingName: 'cryptdata',
    volumeUuid: '00000000-0000-4000-8000-000000000000',
    cipherSpec: 'aes-xts-plain64',
    keyBits: 512,
    sectorSizeBytes: 4096,
    luks2Pbkdf: null,
    allowDiscards: true,
    workqueueBypass: false,
    veracrypt: null,
    ...changes,
  };
}
