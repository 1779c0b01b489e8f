import type { IoBenchmarkMode } from '../../domain/io-benchmark.js';
import { veracryptCommands } from './commands.js';
import type { EncryptionTarget } from '../target.js';
import { prepareVeracrypt } from './benchmark.js';
import { VERACRYPT_TEARDOWNS } from './cleanup.js';
import { veracryptDarwinPlan, veracryptVolumePlan, veracryptWin32Plan } from './plan.js';

/** VeraCrypt with kernel crypto, and in full mode also with its own (userspace) crypto. */
function veracryptKernelCryptoVariants(mode: IoBenchmarkMode): boolean[] {
  return mode === 'full' ? [true, false] : [true];
}

/**
 * VeraCrypt, on every platform (VeraCrypt documentation, "Command Line Usage for Windows" / "for Linux and
 * macOS"). It picks its own encryption algorithm and PIM; its open volumes show as `veracryptN` device-mapper
 * mappings on Linux (src/Core/Unix/Linux/CoreLinux.cpp).
 */
export const veracryptTarget = {
  id: 'veracrypt',
  labels: { short: 'VeraCrypt', withTool: 'VeraCrypt', home: 'VeraCrypt runs everywhere' },
  facts: ['disk', 'stack', 'encryption', 'cipherBenchmark', 'machine', 'trim', 'ioBenchmark'],
  platforms: ['linux', 'darwin', 'win32'],
  defaultOn: [],
  planOption: true,
  // cryptsetup and blkid call VeraCrypt/TrueCrypt headers TCRYPT (cryptsetup(8) "TCRYPT").
  recognition: {
    encryptedFormats: ['tcrypt'],
    unencryptedFormats: [],
    layerKinds: ['veracrypt'],
    flagsInHeader: [],
    // VeraCrypt's own Linux mappings are named veracryptN (VeraCrypt src/Core/Unix/Linux/CoreLinux.cpp).
    mappingNames: /^veracrypt\d*$/,
    layerDiscards: {
      reason:
        'VeraCrypt maps its volumes without allow_discards on Linux, whatever its documentation says (VeraCrypt CoreLinux.cpp, veracrypt/VeraCrypt#1186).',
      fix: (name) =>
        `close it in VeraCrypt, then: cryptsetup open --type tcrypt --allow-discards <device> ${name} (never for hidden volumes)`,
    },
  },
  tradeOffs: [],
  settings: {
    engine: { name: 'VeraCrypt', allCores: true, dmCryptQueues: false },
    cipher: 'own-algorithm',
    keyDerivation: 'veracrypt-pim',
    fixedCipher: null,
    ownDiscards: {
      value: false,
      reason:
        "VeraCrypt's Linux mappings never pass discards whatever its documentation says (its dm table has no allow_discards, issue #1186); open the volume with cryptsetup open --type tcrypt --allow-discards if you want TRIM.",
      beforeThreatModel: false,
      linuxOnly: true,
    },
    dmCryptParameters: false,
    plansKeySize: true,
    // VeraCrypt volumes use 512-byte sectors of their own (VeraCrypt documentation, "Technical Details").
    defaultSectorBytes: 512,
    inPlaceEncryption: false,
    refreshOpenVolume: false,
    windowsTrim:
      'VeraCrypt blocks TRIM on non-system volumes unless "Allow TRIM command for non-system SSD partition/drive" is set (VeraCrypt documentation, "Trim Operation"); TRIM reveals which blocks are free.',
  },
  platformPlans: { darwin: veracryptDarwinPlan, win32: veracryptWin32Plan },
  volumePlan: veracryptVolumePlan,
  commands: veracryptCommands,
  benchmark: {
    backendId: 'veracrypt',
    label: 'VeraCrypt I/O',
    container: 'veracrypt-file',
    platforms: ['linux', 'win32'],
    tools: ['veracrypt'],
    kernel: ['device-mapper'],
    cleanup: VERACRYPT_TEARDOWNS,
    containers: (mode) => veracryptKernelCryptoVariants(mode).length,
    variants: (mode) =>
      veracryptKernelCryptoVariants(mode).map((kernelCrypto) => ({
        variant: kernelCrypto ? 'veracrypt kernel crypto' : 'veracrypt userspace crypto',
        prepare: (context) => prepareVeracrypt(context, { kernelCrypto }),
      })),
    sharesScratchFilesystem: false,
    rawDevice: false,
    prepareExpectedMs: 4000,
    quickReduction: 'VeraCrypt: kernel crypto only.',
    selectable: true,
    autoTool: 'veracrypt',
  },
} as const satisfies EncryptionTarget;
