import { DM_CRYPT_ENGINE, type EncryptionTarget } from '../target.js';
import { BITLOCKER_TEARDOWNS } from './cleanup.js';
import { bitlockerWin32Plan } from './plan.js';

/**
 * BitLocker, Windows' own volume encryption (manage-bde). Windows fixes its cipher (XTS-AES 128 by default) and
 * key protectors; it plans itself on Windows (targets/bitlocker/plan.ts).
 */
export const bitlockerTarget = {
  id: 'bitlocker',
  labels: { short: 'BitLocker', withTool: 'BitLocker', home: 'BitLocker is Windows’' },
  facts: ['storage', 'ioBenchmark'],
  platforms: ['win32'],
  defaultOn: ['win32'],
  planOption: true,
  // manage-bde -status: "Conversion Status: Fully Decrypted" is a BitLocker volume that does not encrypt.
  recognition: {
    encryptedFormats: ['bitlocker'],
    unencryptedFormats: ['bitlocker-off'],
    layerKinds: [],
    flagsInHeader: [],
    mappingNames: null,
    layerDiscards: null,
  },
  tradeOffs: [],
  settings: {
    // Not measured per request: modelled like dm-crypt's stock queues, as the plan has always done.
    engine: DM_CRYPT_ENGINE,
    cipher: 'dm-crypt',
    keyDerivation: 'platform',
    fixedCipher: null,
    ownDiscards: null,
    dmCryptParameters: false,
    plansKeySize: true,
    defaultSectorBytes: 512,
    inPlaceEncryption: false,
    refreshOpenVolume: false,
    windowsTrim: 'BitLocker passes TRIM from NTFS to the drive.',
  },
  platformPlans: { win32: bitlockerWin32Plan },
  commands: {
    // sgdisk 0700 "Microsoft basic data".
    gptType: '0700',
    partitions: true,
    // BitLocker protects an existing NTFS volume: the Windows plan writes its manage-bde lines from the volume it
    // protects (targets/bitlocker/commands.ts, bitlockerCommands); there is no Linux command that makes one.
    volume: () => [],
  },
  benchmark: {
    backendId: 'bitlocker',
    label: 'BitLocker I/O (a BitLocker-encrypted VHDX test volume)',
    container: 'bitlocker-vhdx',
    platforms: ['win32'],
    tools: [],
    kernel: [],
    cleanup: BITLOCKER_TEARDOWNS,
    containers: () => 1,
    // Measured by the Windows benchmark with DiskSpd on a BitLocker VHDX (use-cases/benchmark/run-windows-io-benchmark.ts).
    variants: () => [],
    sharesScratchFilesystem: false,
    rawDevice: false,
    prepareExpectedMs: 4000,
    quickReduction: null,
    selectable: false,
    autoTool: null,
  },
} as const satisfies EncryptionTarget;
