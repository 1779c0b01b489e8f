import type { TargetCommands } from '../target.js';

/**
 * APFS's commands: diskutil adds an encrypted volume to the container (diskutil(8) apfs addVolume
 * -passprompt); the container's space is shared, so no partition is laid out. GPT type af0a is "Apple APFS"
 * (sgdisk(8) -L).
 */
export const apfsCommands: TargetCommands = {
  gptType: 'af0a',
  partitions: false,
  volume: (input) => [
    {
      id: 'apfs-add-volume',
      purpose:
        'Add an encrypted APFS volume to the container; diskutil prompts for the passphrase (-passprompt).',
      argv: ['diskutil', 'apfs', 'addVolume', input.devicePath, 'APFS', input.label, '-passprompt'],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
  ],
};
