import { apfsCommands } from './commands.js';
import type { EncryptionTarget } from '../target.js';
import { prepareApfsImage } from './benchmark.js';
import { APFS_TEARDOWNS } from './cleanup.js';
import { apfsDarwinPlan } from './plan.js';

/**
 * APFS volume encryption and FileVault, macOS's own (diskutil(8) apfs addVolume/encryptVolume, fdesetup(8)).
 * APFS fixes its cipher (AES-XTS) and 4096-byte blocks; the plan is the platform plan.
 */
export const apfsTarget = {
  id: 'apfs',
  labels: { short: 'FileVault (APFS)', withTool: 'FileVault (APFS)', home: 'APFS encryption is macOS’s' },
  facts: ['storage', 'ioBenchmark'],
  platforms: ['darwin'],
  defaultOn: ['darwin'],
  planOption: true,
  recognition: {
    // diskutil apfs list: FileVault on the boot volume group, "Encrypted: Yes" on other volumes ('apfs': the
    // storage model's name for the latter).
    encryptedFormats: ['filevault', 'apfs-encrypted', 'apfs'],
    unencryptedFormats: ['apfs-unencrypted'],
    layerKinds: [],
    flagsInHeader: [],
    mappingNames: null,
    layerDiscards: null,
  },
  tradeOffs: [],
  settings: {
    // The CPU's AES, modelled like dm-crypt's stock queues spread over the request's depth.
    engine: { name: 'APFS', allCores: false, dmCryptQueues: false },
    cipher: 'dm-crypt',
    keyDerivation: 'platform',
    // APFS encrypts with AES-256 in XTS mode, a 512-bit XTS key (Apple Platform Security guide, "Data
    // Protection": the AES engine's AES-256 XTS).
    fixedCipher: {
      spec: 'aes-xts-plain64',
      keyBits: 512,
      reason:
        'APFS always encrypts with AES-XTS (the CPU for external disks, the Secure Enclave inline engine for internal ones), so there is nothing to choose.',
    },
    ownDiscards: {
      value: true,
      reason: 'APFS passes TRIM on its own encrypted volumes; nothing to configure.',
      beforeThreatModel: true,
      linuxOnly: false,
    },
    dmCryptParameters: false,
    plansKeySize: false,
    // APFS uses 4096-byte blocks (Apple File System Reference, "Block size").
    defaultSectorBytes: 4096,
    inPlaceEncryption: false,
    refreshOpenVolume: false,
    windowsTrim: null,
  },
  platformPlans: { darwin: apfsDarwinPlan },
  commands: apfsCommands,
  benchmark: {
    backendId: 'apfs',
    label: 'APFS encrypted disk image I/O',
    container: 'apfs-image',
    platforms: ['darwin'],
    tools: ['hdiutil'],
    kernel: [],
    cleanup: APFS_TEARDOWNS,
    containers: () => 1,
    variants: () => [{ variant: 'apfs', prepare: (context) => prepareApfsImage(context, true) }],
    sharesScratchFilesystem: false,
    rawDevice: false,
    prepareExpectedMs: 4000,
    quickReduction: null,
    selectable: true,
    autoTool: null,
  },
} as const satisfies EncryptionTarget;
