import { luks2VariantName, type IoBenchmarkMode, type Luks2Variant } from '../../domain/io-benchmark.js';
import { luks2Commands } from './commands.js';
import { DM_CRYPT_ENGINE, type EncryptionTarget } from '../target.js';
import { prepareLuks2 } from './benchmark.js';
import { LUKS2_TEARDOWNS } from './cleanup.js';
import { luks2VolumePlan } from './plan.js';

/** The LUKS2 variants a benchmark mode measures. */
function luksVariants(mode: IoBenchmarkMode): Luks2Variant[] {
  // Sector size (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes) and workqueues (Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*) are the two biggest dm-crypt levers; full measures all four.
  return mode === 'full'
    ? [
        { sectorSizeBytes: 4096, noWorkqueues: false },
        { sectorSizeBytes: 4096, noWorkqueues: true },
        { sectorSizeBytes: 512, noWorkqueues: false },
        { sectorSizeBytes: 512, noWorkqueues: true },
      ]
    : [{ sectorSizeBytes: 4096, noWorkqueues: true }];
}

/**
 * LUKS2 on dm-crypt, Linux's own full-disk encryption (cryptsetup(8)). The plan's default on Linux: encplan
 * chooses its cipher, key size, sector size, workqueues and Argon2id cost, can encrypt a filesystem in place
 * (cryptsetup reencrypt --encrypt) and tunes an open volume with cryptsetup refresh.
 */
export const luks2Target = {
  id: 'luks2',
  labels: {
    short: 'LUKS2',
    withTool: 'LUKS2 (cryptsetup)',
    home: 'LUKS2 is the Linux kernel’s dm-crypt format',
  },
  facts: ['disk', 'stack', 'encryption', 'kernelCrypto', 'cipherBenchmark', 'machine', 'trim', 'ioBenchmark'],
  platforms: ['linux'],
  defaultOn: ['linux'],
  planOption: true,
  // cryptsetup opens LUKS1 and LUKS2 headers alike; blkid TYPE crypto_LUKS with VERSION 1 or 2.
  recognition: {
    encryptedFormats: ['luks1', 'luks2'],
    unencryptedFormats: [],
    layerKinds: ['dm-crypt'],
    // Only LUKS2 headers store activation flags (cryptsetup(8) refresh --persistent).
    flagsInHeader: ['luks2'],
    mappingNames: null,
    layerDiscards: null,
  },
  tradeOffs: [],
  settings: {
    engine: DM_CRYPT_ENGINE,
    cipher: 'dm-crypt',
    keyDerivation: 'luks2-keyslot',
    fixedCipher: null,
    ownDiscards: null,
    dmCryptParameters: true,
    plansKeySize: true,
    // dm-crypt's default sector when --sector-size is not given (cryptsetup(8) --sector-size).
    defaultSectorBytes: 512,
    inPlaceEncryption: true,
    refreshOpenVolume: true,
    windowsTrim: null,
  },
  volumePlan: luks2VolumePlan,
  commands: luks2Commands,
  benchmark: {
    backendId: 'luks2',
    label: 'LUKS2 (dm-crypt) I/O',
    container: 'dm-crypt-file',
    platforms: ['linux'],
    tools: ['cryptsetup', 'dmsetup'],
    kernel: ['device-mapper'],
    cleanup: LUKS2_TEARDOWNS,
    containers: (mode) => luksVariants(mode).length,
    variants: (mode) =>
      luksVariants(mode).map((variant) => ({
        variant: luks2VariantName(variant),
        prepare: (context, _scratch, rawDevice) => prepareLuks2(context, variant, rawDevice),
      })),
    sharesScratchFilesystem: false,
    rawDevice: true,
    prepareExpectedMs: 2500,
    quickReduction: 'LUKS2: one variant (sector 4096, no workqueues) instead of four.',
    selectable: true,
    autoTool: 'cryptsetup',
  },
} as const satisfies EncryptionTarget;
