import { z } from 'zod';
import { factSourceSchema } from '../domain/source.js';
import { transportSchema } from '../domain/device.js';
import { healthVerdictSchema } from '../domain/health.js';

/**
 * PlanInput: exactly the facts the plan's rules read, and nothing else. The assessment's facts are mapped
 * onto it (see docs/plan-input.md); a plan can also be made from a hand-written PlanInput JSON file.
 * Every fact that a probe may fail to learn is nullable: `null` means "unknown", never "no" or "zero".
 */

/** The I/O profiles of the CrystalDiskMark/KDiskMark default set (reference-facts §1.5, §1.6). */
export const planProfileIdSchema = z.enum(['seq1m-q8t1', 'seq1m-q1t1', 'rnd4k-q32t1', 'rnd4k-q1t1']);
export type PlanProfileId = z.infer<typeof planProfileIdSchema>;

/** Queue depth and block size of each profile; the performance model needs both. */
export const IO_PROFILE_SHAPES: Readonly<
  Record<PlanProfileId, { readonly blockBytes: number; readonly queueDepth: number }>
> = {
  'seq1m-q8t1': { blockBytes: 1_048_576, queueDepth: 8 },
  'seq1m-q1t1': { blockBytes: 1_048_576, queueDepth: 1 },
  'rnd4k-q32t1': { blockBytes: 4096, queueDepth: 32 },
  'rnd4k-q1t1': { blockBytes: 4096, queueDepth: 1 },
};

/** Cipher ids as `cryptsetup benchmark -c` names them (without the IV part). */
export const cipherIdSchema = z.enum([
  'aes-xts',
  'serpent-xts',
  'twofish-xts',
  'xchacha12,aes-adiantum',
  'xchacha20,aes-adiantum',
]);
export type CipherId = z.infer<typeof cipherIdSchema>;

/** One measured cipher: bytes/s on one core (cryptsetup benchmark is single-threaded, §1.1) and all cores. */
export const planCipherSpeedSchema = z.object({
  cipher: cipherIdSchema,
  keyBits: z.number().int().positive(),
  encryptBytesPerSecondOneCore: z.number().nonnegative().nullable(),
  decryptBytesPerSecondOneCore: z.number().nonnegative().nullable(),
  /** All cores at once (openssl speed -multi, VeraCrypt's benchmark); null when only one core was measured. */
  encryptBytesPerSecondAllCores: z.number().nonnegative().nullable(),
  source: factSourceSchema,
});
export type PlanCipherSpeed = z.infer<typeof planCipherSpeedSchema>;

/** Hashes of PBKDF2 as cryptsetup benchmark prints them. */
export const pbkdf2HashSchema = z.enum([
  'sha1',
  'sha256',
  'sha512',
  'ripemd160',
  'whirlpool',
  'blake2s',
  'streebog',
]);
export type Pbkdf2Hash = z.infer<typeof pbkdf2HashSchema>;

/** PBKDF2 speed of one hash: "PBKDF2-sha512 1685813 iterations per second for 256-bit key". */
export const planPbkdf2SpeedSchema = z.object({
  hash: pbkdf2HashSchema,
  /** Iterations per second for a 256-bit derived key, as cryptsetup measures it (§1.1). */
  iterationsPerSecond: z.number().positive(),
  source: factSourceSchema,
});
export type PlanPbkdf2Speed = z.infer<typeof planPbkdf2SpeedSchema>;

/** What `cryptsetup benchmark` chose for argon2id to take `targetMs` on this machine (§1.1, §4.3). */
export const argon2idBenchmarkSchema = z.object({
  timeCost: z.number().int().positive(),
  memoryKiB: z.number().int().positive(),
  threads: z.number().int().positive(),
  /** The time cryptsetup aimed for ("requested 2000 ms time"). */
  targetMs: z.number().int().positive(),
  source: factSourceSchema,
});

/** Plain (unencrypted) throughput of one profile on the target. */
export const plainThroughputSchema = z.object({
  profile: planProfileIdSchema,
  readBytesPerSecond: z.number().nonnegative().nullable(),
  writeBytesPerSecond: z.number().nonnegative().nullable(),
  source: factSourceSchema,
});

/** Measured encrypted throughput of one profile, with the settings it was measured with. */
export const encryptedThroughputSchema = plainThroughputSchema.extend({
  cipher: cipherIdSchema.nullable(),
  keyBits: z.number().int().positive().nullable(),
  sectorSizeBytes: z.number().int().positive().nullable(),
  /** True when measured with --perf-no_read_workqueue --perf-no_write_workqueue. */
  workqueueBypass: z.boolean().nullable(),
});
export type EncryptedThroughput = z.infer<typeof encryptedThroughputSchema>;


/** The layer kinds a discard can stop at (reference-facts §3.1–3.4). */
export const blockingLayerKindSchema = z.enum([
  'dm-crypt',
  'lvm-thin',
  'md-raid',
  'loop',
  'usb-bridge',
  'veracrypt',
  'device',
  'other',
]);

/** The planner's input. See the module comment: null = unknown. */
export const planInputSchema = z.object({
  os: z.enum(['linux', 'darwin', 'win32']),
  cpu: z.object({
    /** Node's process.arch spelling: "x64", "arm64", "arm". */
    arch: z.string().nullable(),
    /** AES instructions: x86 AES-NI, or the ARMv8 Crypto Extensions "aes" feature. */
    hasAes: z.boolean().nullable(),
    hasVaes: z.boolean().nullable(),
    /** x86 PCLMULQDQ or ARMv8 "pmull" (carry-less multiply; GCM/XTS helpers). */
    hasPmull: z.boolean().nullable(),
    /** Online logical CPUs. */
    cores: z.number().int().positive().nullable(),
    memoryBytes: z.number().int().positive().nullable(),
  }),
  kernel: z.object({
    /** uname -r, e.g. "6.1.0-27-amd64". */
    version: z.string().nullable(),
    /** The driver /proc/crypto names for xts(aes), e.g. "xts-aes-aesni" or "xts(ecb(aes-fixed-time))". */
    xtsAesDriver: z.string().nullable(),
    /** True when that driver is a generic C implementation (no AES instructions used). */
    xtsAesGeneric: z.boolean().nullable(),
    adiantumAvailable: z.boolean().nullable(),
  }),
  cipherSpeeds: z.array(planCipherSpeedSchema),
  pbkdf2Speeds: z.array(planPbkdf2SpeedSchema),
  argon2id: argon2idBenchmarkSchema.nullable(),
  device: z.object({
    /** The block device the plan is for, e.g. "/dev/nvme0n1"; null plans with a placeholder. */
    path: z.string().nullable(),
    transport: transportSchema.nullable(),
    rotational: z.boolean().nullable(),
    sizeBytes: z.number().int().positive().nullable(),
    logicalSectorBytes: z.number().int().positive().nullable(),
    physicalSectorBytes: z.number().int().positive().nullable(),
    plainThroughput: z.array(plainThroughputSchema),
    /** NVMe OACS bit 3 (namespace management), §3.7; null when not NVMe or unknown. */
    nvmeNamespaceManagement: z.boolean().nullable(),
    /** ATA Host Protected Area can be set (hdparm -N), §3.7. */
    hpaSupported: z.boolean().nullable(),
  }),
  health: z.object({
    verdict: healthVerdictSchema,
    /** One sentence per finding that made the verdict ("Reallocated_Sector_Ct raw 304 …"). */
    findings: z.array(z.string()),
    /** NVMe percentage_used or the vendor's wear attribute, 0–100+ (§1.9, §1.11). */
    wearPercentUsed: z.number().nonnegative().nullable(),
    /** Host bytes written over the drive's life (NVMe data units × 512,000, §1.9). */
    dataWrittenBytes: z.number().nonnegative().nullable(),
    /** The vendor's rated endurance (TBW) in bytes. */
    ratedEnduranceBytes: z.number().positive().nullable(),
    source: factSourceSchema,
  }),
  trim: z.object({
    /** The drive itself accepts TRIM / deallocate / UNMAP (§3.6). */
    deviceSupportsTrim: z.boolean().nullable(),
    /** The drive reads zeros after TRIM (ATA RZAT, NVMe DLFEAT=1): the used-space map is then exact (§3.1). */
    readsZeroAfterTrim: z.boolean().nullable(),
    /**
     * The first layer of the planned or existing stack that blocks discards; null when they pass (or when
     * `passthroughKnown` is false).
     */
    firstBlockingLayer: z.object({ kind: blockingLayerKindSchema, name: z.string() }).nullable(),
    /** False when the passthrough walk could not run; firstBlockingLayer is then meaningless. */
    passthroughKnown: z.boolean(),
    source: factSourceSchema,
  }),
  space: z.object({
    /** Never-allocated bytes on the disk (all gaps and the tail). */
    unallocatedBytes: z.number().int().nonnegative().nullable(),
    /** Bytes of NAND beyond the visible capacity (factory spare); null when unknown (§3.7: ~7 % on client drives). */
    factorySpareBytes: z.number().int().nonnegative().nullable(),
    partitionTable: z.enum(['gpt', 'dos', 'none', 'unknown']).nullable(),
    /** Last sector (in logical sectors, inclusive) of the partition that ends last; null when no partitions. */
    lastPartitionEndSector: z.number().int().nonnegative().nullable(),
  }),
  encryptedThroughput: z.array(encryptedThroughputSchema),
  /**
   * Encryption already on the device. For an open LUKS mapping the plan tunes it (cryptsetup refresh)
   * instead of formatting; null when the device holds no known encryption.
   */
  existingEncryption: z
    .object({
      kind: z.enum(['luks1', 'luks2', 'bitlocker', 'other']),
      mappingName: z
        .string()
        .regex(/^[A-Za-z0-9_.:-]+$/)
        .nullable(),
    })
    .nullable(),
});
/** The planner's input; see {@link planInputSchema}. */
export type PlanInput = z.infer<typeof planInputSchema>;

const NOT_MEASURED = { origin: 'not measured', field: null };

/** A PlanInput where every fact is unknown (null or empty): the base that mappers and tests fill in. */
export function unknownPlanInput(os: PlanInput['os'] = 'linux'): PlanInput {
  return {
    os,
    cpu: { arch: null, hasAes: null, hasVaes: null, hasPmull: null, cores: null, memoryBytes: null },
    kernel: { version: null, xtsAesDriver: null, xtsAesGeneric: null, adiantumAvailable: null },
    cipherSpeeds: [],
    pbkdf2Speeds: [],
    argon2id: null,
    device: {
      path: null,
      transport: null,
      rotational: null,
      sizeBytes: null,
      logicalSectorBytes: null,
      physicalSectorBytes: null,
      plainThroughput: [],
      nvmeNamespaceManagement: null,
      hpaSupported: null,
    },
    health: {
      verdict: 'unknown',
      findings: [],
      wearPercentUsed: null,
      dataWrittenBytes: null,
      ratedEnduranceBytes: null,
      source: NOT_MEASURED,
    },
    trim: {
      deviceSupportsTrim: null,
      readsZeroAfterTrim: null,
      firstBlockingLayer: null,
      passthroughKnown: false,
      source: NOT_MEASURED,
    },
    space: {
      unallocatedBytes: null,
      factorySpareBytes: null,
      partitionTable: null,
      lastPartitionEndSector: null,
    },
    encryptedThroughput: [],
    existingEncryption: null,
  };
}
