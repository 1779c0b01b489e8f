import type { EncryptionTarget } from '../target.js';
import { prepareFscrypt } from './benchmark.js';
import { FSCRYPT_TEARDOWNS } from './cleanup.js';

/**
 * fscrypt: ext4/f2fs file-contents encryption of one directory tree (Linux Documentation/filesystems/fscrypt.rst),
 * a file-level layer, not full-disk: encplan measures it but plans no fscrypt volume.
 */
export const fscryptTarget = {
  id: 'fscrypt',
  labels: {
    short: 'fscrypt',
    withTool: 'fscrypt (ext4 file encryption)',
    home: 'fscrypt is ext4’s and f2fs’s file encryption on Linux',
  },
  facts: ['ioBenchmark'],
  platforms: ['linux'],
  defaultOn: [],
  planOption: false,
  recognition: {
    encryptedFormats: [],
    unencryptedFormats: [],
    layerKinds: [],
    flagsInHeader: [],
    mappingNames: null,
    layerDiscards: null,
  },
  tradeOffs: [],
  settings: null,
  commands: null,
  benchmark: {
    backendId: 'fscrypt',
    label: 'fscrypt (ext4 file encryption) I/O',
    container: 'fscrypt-directory',
    platforms: ['linux'],
    tools: ['fscrypt'],
    kernel: ['ext4-encryption'],
    cleanup: FSCRYPT_TEARDOWNS,
    // It encrypts a directory of the plain scratch filesystem: no container of its own.
    containers: () => 0,
    variants: () => [{ variant: 'fscrypt', prepare: (context, scratch) => prepareFscrypt(context, scratch) }],
    sharesScratchFilesystem: true,
    rawDevice: true,
    prepareExpectedMs: 800,
    quickReduction: null,
    selectable: true,
    autoTool: 'fscrypt',
  },
} as const satisfies EncryptionTarget;
