import type { Capability } from '../domain/capabilities.js';
import type { BackendId, IoBenchmarkMode, Overhead } from '../domain/io-benchmark.js';
import type { PlanCommand } from '../domain/plan-command.js';
import type { Finding, Recommendation } from '../domain/recommendation.js';
import type { StorageModel } from '../domain/storage-model.js';
import type { OpalLocking, Sed } from '../domain/sed.js';
import type { ToolName } from '../ports.js';
import type { PreparedTarget, ScratchFilesystem, TargetContext } from './container-steps.js';
import type { ResourceTeardown } from './teardown-steps.js';

/** The platforms encplan plans for (Node's process.platform names). */
export type PlanPlatform = 'linux' | 'darwin' | 'win32';

/** What encrypts the data under a target, as the performance model (rules/performance-model.ts) sees it. */
export interface TargetEngine {
  /** How the performance notes name it: "dm-crypt", "VeraCrypt", "APFS". */
  readonly name: string;
  /** Splits every request over all cores (VeraCrypt documentation, "Parallelization"). */
  readonly allCores: boolean;
  /** dm-crypt's workqueues sit in the path (the bypass setting applies); false: it adds no queueing of its own. */
  readonly dmCryptQueues: boolean;
}

/** dm-crypt, cryptsetup's engine (LUKS2 and LUKS2 on OPAL, whose software layer is dm-crypt). */
export const DM_CRYPT_ENGINE: TargetEngine = { name: 'dm-crypt', allCores: false, dmCryptQueues: true };

/** The words a person reads about a target. */
export interface TargetLabels {
  /** The short name in a plan's summary, e.g. "LUKS2". */
  readonly short: string;
  /** The name with the tool that makes it, in the report's answer, e.g. "LUKS2 (cryptsetup)". */
  readonly withTool: string;
  /** Where the target comes from, completing "--target X does not exist on Y: …". */
  readonly home: string;
}

/** Which of the plan's settings rules apply to a target and what it fixes itself. */
export interface TargetSettingsRules {
  readonly engine: TargetEngine;
  /**
   * Who chooses the cipher: `dm-crypt` (encplan's cipher mode and key size rules, cryptsetup --cipher/--key-size)
   * or `own-algorithm` (VeraCrypt's encryption algorithm rule: AES, Serpent, cascades).
   */
  readonly cipher: 'dm-crypt' | 'own-algorithm';
  /** A cipher the target always uses (APFS): the cipher rules then only state it. */
  readonly fixedCipher: {
    readonly spec: 'aes-xts-plain64';
    readonly keyBits: number;
    readonly reason: string;
  } | null;
  /**
   * Discards decided by the target itself: `beforeThreatModel` (APFS trims its own volumes whatever the threat
   * model) or after it; `linuxOnly` for a Linux behaviour (VeraCrypt's Linux mappings never pass discards).
   */
  readonly ownDiscards: {
    readonly value: boolean;
    readonly reason: string;
    readonly beforeThreatModel: boolean;
    readonly linuxOnly: boolean;
  } | null;
  /**
   * The key derivation its volumes use: LUKS2 keyslots (Argon2id or PBKDF2), VeraCrypt's PIM, or none encplan
   * sets. Its `volumePlan` applies the rules; a target whose key derivation encplan sets has one.
   */
  readonly keyDerivation: 'luks2-keyslot' | 'veracrypt-pim' | 'platform';
  /** The dm-crypt parameter rules (sector size, workqueue bypass) apply: the target is a dm-crypt mapping. */
  readonly dmCryptParameters: boolean;
  /** Whether encplan plans a key size for it (false: the platform fixes it). */
  readonly plansKeySize: boolean;
  /** The sector size of a volume when the plan leaves it open. */
  readonly defaultSectorBytes: number;
  /** An existing filesystem can be encrypted in place (cryptsetup reencrypt --encrypt). */
  readonly inPlaceEncryption: boolean;
  /** Why it cannot, when the target itself is the reason (luks2-opal: no reencryption of an OPAL device). */
  readonly inPlaceRefusal?: string;
  /** An open volume of this target can be tuned in place (cryptsetup refresh) instead of being formatted. */
  readonly refreshOpenVolume: boolean;
  /** What it does with TRIM on Windows, for the windows-trim rule; null: it does not run on Windows. */
  readonly windowsTrim: string | null;
}

/** The sed section's `opalLocking` as a plan input may hold it: any field absent (docs/plan-input.md). */
export type LooseOpalLocking = {
  readonly [K in Exclude<keyof OpalLocking, 'mbrShadowing'>]?: OpalLocking[K] | undefined;
} & {
  readonly mbrShadowing?:
    { readonly [K in keyof OpalLocking['mbrShadowing']]?: boolean | null | undefined } | undefined;
};

/** The facts a target's admission check reads: the drive's SED capability and how it is attached. */
export interface TargetAdmissionFacts {
  /** The assessment's `sed` section (analyses/sed.ts), any field unknown; null: no section. */
  readonly sed:
    | ({
        readonly [K in 'status' | 'opal1' | 'opal2' | 'enterprise' | 'pyrite']?: Sed[K] | undefined;
      } & { readonly opalLocking?: LooseOpalLocking | undefined })
    | null;
  /** The disk sits behind a USB bridge (lsblk transport or a usb-bridge stack layer); null: unknown. */
  readonly behindUsbBridge: boolean | null;
}

/** Whether a target may be planned for this drive, and why not. */
export type TargetAdmission =
  | {
      readonly admitted: true;
      /** What the drive's state means for this target, stated with the plan (absent: nothing to add). */
      readonly notes?: readonly string[];
    }
  | { readonly admitted: false; readonly reason: string };

/**
 * What a target's volume commands are made from: where the volume goes and the settings the plan's rules
 * decided (plan/commands.ts volumeInputOf fills it; the types restate the rules' values structurally, since
 * targets sit below the rules in packages/core/layers.json).
 */
export interface VolumeCommandInput {
  /** The platform the commands are written for. */
  readonly platform: PlanPlatform;
  /** The disk (or APFS container) the plan is for. */
  readonly devicePath: string;
  /** Where the volume goes: the plan's new partition, or the device as given. */
  readonly volumePath: string;
  /** The stage of the script the commands belong to (absent: 1). */
  readonly stage: number | undefined;
  readonly label: string;
  readonly mappingName: string;
  /** The UUID the volume is made with, so the crypttab line is known before it exists (plan/volume-uuid.ts). */
  readonly volumeUuid: string;
  readonly cipherSpec: string;
  readonly keyBits: number;
  readonly sectorSizeBytes: number | null;
  /** The LUKS2 keyslot's KDF and cost (rules/key-derivation.ts); null: cryptsetup's default. */
  readonly luks2Pbkdf: {
    /** Absent: argon2id. */
    readonly kdf?: 'argon2id' | 'pbkdf2' | undefined;
    readonly memoryKiB: number;
    readonly parallel: number;
    readonly iterations: number | null;
    readonly iterTimeMs: number | null;
  } | null;
  readonly allowDiscards: boolean;
  readonly workqueueBypass: boolean;
  /** VeraCrypt's algorithm, hash and PIM (rules/cipher.ts, rules/key-derivation.ts); null: not decided. */
  readonly veracrypt: {
    readonly encryption: string;
    readonly kdf: { readonly hash: string; readonly pim: number };
  } | null;
}

/** An open volume the plan tunes in place instead of formatting (rules/facts.ts existingEncryptionOf). */
export interface OpenVolume {
  readonly mappingName: string;
  /** Its header stores activation flags (LUKS2, not LUKS1: cryptsetup(8) refresh --persistent). */
  readonly storesActivationFlags: boolean;
}

/** A setting as a command's words apply it: the option that carries it and its value there (null: not given). */
export interface AppliedOption {
  readonly option: string;
  readonly value: string | null;
}

/**
 * The settings one of a target's commands applies, read from its own words (TargetCommands.read), for the plan's
 * consistency check (plan/consistency.ts) to hold against the settings the plan states.
 */
export type AppliedSettings =
  | {
      /** It makes the volume (LUKS2: luksFormat, reencrypt --encrypt): cipher, key size, sector size, key derivation. */
      readonly kind: 'volume';
      readonly cipher: AppliedOption;
      readonly keySizeBits: AppliedOption;
      readonly sectorSizeBytes: AppliedOption;
      /** The keyslot's KDF, its memory and lanes (Argon2 only), and its forced iterations. */
      readonly kdf: AppliedOption;
      readonly kdfMemoryKiB: AppliedOption;
      readonly kdfParallel: AppliedOption;
      readonly kdfIterations: AppliedOption;
    }
  | {
      /** It opens the volume, now or at boot (LUKS2: open, refresh, the crypttab line). */
      readonly kind: 'activation';
      readonly discards: boolean;
      /** Whether it bypasses dm-crypt's workqueues; null: it leaves them as they are (a refresh applies only changes). */
      readonly workqueueBypass: boolean | null;
    }
  | {
      /** It creates a volume with a PIM and a header-key hash of its own (VeraCrypt). */
      readonly kind: 'pim-and-hash';
      readonly pim: string | null;
      readonly hash: string | null;
    };

/** An activation flag of an open or refresh command: the option, what it sets, and whether the command gives it. */
export interface ActivationSwitch {
  readonly option: string;
  readonly setting: 'discards' | 'workqueue-bypass';
  readonly given: boolean;
}

/**
 * What one of a target's commands does to the disk, read from its argv (TargetCommands.read), for the invariants
 * no flag overrides (plan/invariants.ts). `step` names it in the checker's messages; `writesDisk`: it writes the
 * disk (a volume on it, or the volume's opening), so it never runs on a disk in use.
 */
export type DiskStep = { readonly step: string; readonly writesDisk: boolean } & (
  | {
      /** It formats `device` with a new volume. */
      readonly kind: 'format';
      readonly device: string | undefined;
    }
  | {
      /** It opens the volume on `device` as `mapping` with these flags. */
      readonly kind: 'open';
      readonly device: string | undefined;
      readonly mapping: string | undefined;
      readonly switches: readonly ActivationSwitch[];
    }
  | {
      /** It applies these flags to the open mapping `mapping`. */
      readonly kind: 'refresh';
      readonly mapping: string | undefined;
      readonly switches: readonly ActivationSwitch[];
    }
  | {
      /** It encrypts an existing filesystem in place (judged by the in-place strategy's preconditions). */
      readonly kind: 'in-place';
    }
  | {
      /** Its tool, but no step the checker can judge: it is never emitted. */
      readonly kind: 'unjudged';
    }
);

/** What a command is to the target whose tool wrote it: its step on the disk and the settings it applies. */
export interface CommandReading {
  /** Null: no step of its own on the disk (the crypttab line is `tee`'s, a shared step's). */
  readonly step: DiskStep | null;
  /** Null: it applies none of the plan's settings. */
  readonly settings: AppliedSettings | null;
}

/** How the plan's commands make (or tune) a volume of this target, in the tool's own syntax. */
export interface TargetCommands {
  /** The sgdisk GPT type code of a partition made for it (sgdisk(8) -L). */
  readonly gptType: string;
  /**
   * The plan lays out a partition for the volume on Linux (false: the target's tool adds the volume to the
   * device as given, e.g. diskutil apfs addVolume, and no partition, refresh or in-place step applies).
   */
  readonly partitions: boolean;
  /** The commands that make a volume at `input.volumePath`, in order. */
  volume(input: VolumeCommandInput): PlanCommand[];
  /** The commands that apply the planned activation flags to an open volume (absent: it cannot be tuned). */
  refresh?(input: VolumeCommandInput, open: OpenVolume): PlanCommand[];
  /**
   * The commands that encrypt the filesystem at `input.volumePath` in place, once the shared steps
   * (plan/commands-in-place.ts) have shrunk it by `reduction` (cryptsetup's size syntax, e.g. "32M"): the
   * encryption itself, the commands that open the volume (before the filesystem grows into it) and those that
   * open it at boot. Absent: it cannot encrypt in place (settings.inPlaceEncryption is false); null: no command.
   */
  inPlace?(input: VolumeCommandInput, reduction: string): InPlaceCommands | null;
  /**
   * Reads a command back from its own words (argv, the stdin text): what it does to the disk and which settings it
   * applies; null when it is none of this target's. The plan's checks (plan/consistency.ts, plan/invariants.ts)
   * ask every target through the registry (targets/registry.ts readCommand), never the builder's account, and
   * never name a target's tool or command id themselves. Absent: the plan's checks read none of its commands.
   */
  read?(command: PlanCommand): CommandReading | null;
}

/** A target's in-place encryption of a filesystem (TargetCommands.inPlace). */
export interface InPlaceCommands {
  readonly encrypt: PlanCommand;
  readonly open: readonly PlanCommand[];
  readonly atBoot: readonly PlanCommand[];
}

/** Recommendations and findings of one decision (the rules' RuleResult, restated: targets sit below rules/). */
export interface TargetRuleResult {
  readonly recommendations: readonly Recommendation[];
  readonly findings: readonly Finding[];
}

/** VeraCrypt's encryption algorithm and key derivation as the plan's rules decide them (rules/cipher.ts, key-derivation.ts). */
export type VeracryptChoice = NonNullable<VolumeCommandInput['veracrypt']>;

/** What a target's platform plan reads: the storage model of a macOS or Windows assessment and the plan options. */
export interface PlatformPlanInput {
  /** The storage model (domain/storage-model.ts), the only storage facts a platform plan reads. */
  readonly storage: StorageModel;
  /** The disk's identifier, null when the assessment names none (the model's placeholder id). */
  readonly diskId: string | null;
  /** The assessment's I/O benchmark overheads, any field absent; null: not measured. */
  readonly ioBenchmark: {
    readonly overhead?: readonly (Partial<Overhead> | undefined)[] | undefined;
  } | null;
  readonly options: { readonly label: string; readonly speedOverSecurity: boolean };
  /** A volume format of the planned target's kind that encrypts (targets/registry.ts isEncryptedVolumeOf). */
  readonly encrypts: (format: string | null | undefined) => boolean;
}

/**
 * The plan layer's rules a target's platform plan combines, handed in by plan/plan-platform.ts (targets sit
 * below rules/ and plan/ in packages/core/layers.json). `V` is the rules' own VeraCrypt settings type, passed
 * through unchanged.
 */
export interface PlatformPlanKit<V extends VeracryptChoice> {
  /** VeraCrypt's encryption algorithm and PIM rules (veracrypt-encryption, veracrypt-hash, veracrypt-pim). */
  readonly veracrypt: () => TargetRuleResult & { readonly settings: V };
  /** `windows-trim` for the plan's target (rules/platform-trim.ts): whether TRIM must be turned on. */
  readonly windowsTrim: () => TargetRuleResult & { readonly enableTrim: boolean };
  /** `macos-trim` (rules/platform-trim.ts): whether `trimforce enable` is needed. */
  readonly macosTrim: () => TargetRuleResult & { readonly trimforce: boolean };
  /** The target's own volume commands for a whole device (plan/commands.ts volumeCommands). */
  readonly volumeCommands: (devicePath: string, veracrypt: V) => PlanCommand[];
}

/** A target's part of a platform plan: its decisions in order, its commands and the settings they add up to. */
export interface PlatformPlanPart<V extends VeracryptChoice> {
  /** The target's decisions, in the order the plan lists them (after the health gate). */
  readonly results: readonly TargetRuleResult[];
  readonly commands: readonly PlanCommand[];
  /** XTS key bits the target encrypts with (null: the platform decides, unknown to the plan). */
  readonly keySizeBits: number | null;
  readonly allowDiscards: boolean;
  /** VeraCrypt's settings when the target chooses them (the plan then states them and the attacker's cost). */
  readonly veracrypt: V | null;
  /** The volume that already encrypts, so there is nothing to do (the plan's strategy); null: none. */
  readonly alreadyEncrypted: {
    readonly path: string;
    readonly format: string;
    readonly reason: string;
  } | null;
}

/** How a target plans itself on one platform from the storage model (targets/<id>/plan.ts). */
export type PlatformPlanHook = <V extends VeracryptChoice>(
  input: PlatformPlanInput,
  kit: PlatformPlanKit<V>,
) => PlatformPlanPart<V>;

/**
 * The rules' own types a volume plan passes through unchanged (targets sit below rules/ in
 * packages/core/layers.json): the LUKS2 keyslot's KDF and cost, VeraCrypt's settings, a cipher speed, a row of
 * the attacker-cost table, the strategy and a predicted-performance row.
 */
export interface VolumePlanTypes {
  readonly keyslot: unknown;
  readonly veracrypt: VeracryptChoice;
  readonly speed: unknown;
  readonly attackerCost: unknown;
  readonly strategy: { readonly kind: string };
  readonly prediction: unknown;
}

/**
 * The plan layer's rules a target's volume plan combines, handed in by plan/plan.ts (plan/volume-kit.ts). Each
 * is computed only when the hook calls it.
 */
export interface VolumePlanKit<T extends VolumePlanTypes> {
  /**
   * The assessed machine runs Linux (rules/facts.ts plansForLinux): the volume plan writes Linux commands and the
   * Linux host's rules apply. False: the model only (a document of another platform without a storage model).
   */
  readonly linuxHost: boolean;
  /** `--encrypted-boot`: GRUB unlocks /boot from the planned volume, whatever the strategy. */
  readonly encryptedBoot: boolean;
  /** `luks2-pbkdf` (rules/key-derivation.ts): the keyslot's Argon2id cost, and the attacker's cost of it. */
  readonly luks2Keyslot: () => TargetRuleResult & {
    readonly pbkdf: T['keyslot'];
    readonly attackerCost: readonly T['attackerCost'][];
  };
  /** GRUB's PBKDF2 keyslot for a volume key of `keyBits` (rules/key-derivation.ts recommendGrubPbkdf2). */
  readonly grubKeyslot: (keyBits: number) => TargetRuleResult & { readonly pbkdf: T['keyslot'] };
  /** /boot is on the volume the strategy encrypts, or --encrypted-boot says so (rules/grub-boot.ts bootOnVolume). */
  readonly bootOnVolume: (strategy: T['strategy']) => boolean;
  /** `grub-boot-pbkdf2`: what GRUB needs of the volume's keyslot (rules/grub-boot.ts). */
  readonly grubFindings: (strategy: T['strategy']) => readonly Finding[];
  /**
   * VeraCrypt's encryption algorithm, hash and PIM, and the Argon2 PIM advice (veracrypt-encryption,
   * veracrypt-hash, veracrypt-pim, veracrypt-argon2-pim), with the algorithm's speed and the attacker's cost.
   */
  readonly veracrypt: () => TargetRuleResult & {
    readonly settings: T['veracrypt'];
    readonly speed: T['speed'];
    readonly attackerCost: readonly T['attackerCost'][];
  };
  /** What the host kernel's AES-XTS means for dm-crypt's predictions (kernel-aes-xts-upgrade, retpoline-aes-xts). */
  readonly kernelCipherFindings: (predicted: readonly T['prediction'][]) => readonly Finding[];
  /** dm-crypt's kernel tunables and the NVMe 4096-byte LBA format (dm-crypt-tunables, nvme-4096-lba). */
  readonly dmCryptTunables: (strategy: T['strategy'], workqueueBypass: boolean) => readonly Finding[];
}

/**
 * A target's part of the volume plan: its key derivation and the settings it adds up to, the cipher it picks
 * itself, and its findings about the host once the predictions and the strategy are known.
 */
export interface VolumePlanPart<T extends VolumePlanTypes> {
  /** Its key derivation decisions, listed after the cipher, sector and discard rules. */
  readonly kdf: TargetRuleResult;
  readonly luks2Pbkdf: T['keyslot'] | null;
  readonly veracrypt: T['veracrypt'] | null;
  /**
   * The cipher it picks itself (VeraCrypt's algorithm) and that cipher's speed, which the performance model
   * uses; null: encplan's cipher mode and key size rules choose (dm-crypt).
   */
  readonly ownCipher: { readonly name: string; readonly speed: T['speed'] } | null;
  readonly attackerCost: readonly T['attackerCost'][];
  /** The residual advice may name the key size (a LUKS2 volume's --key-size). */
  readonly residualKeySize: boolean;
  /**
   * The keyslot GRUB must open, where it must open this volume: before the strategy is known (null) and for the
   * strategy chosen; null: none (the planned keyslot stands).
   */
  grubKeyslot(
    strategy: T['strategy'] | null,
    keyBits: number,
  ): (TargetRuleResult & { readonly pbkdf: T['keyslot'] }) | null;
  /** Findings about the predicted performance on this host. */
  predictionFindings(predicted: readonly T['prediction'][]): readonly Finding[];
  /** Findings once the strategy is chosen (after the fresh path's own notes). */
  strategyFindings(strategy: T['strategy'], workqueueBypass: boolean): readonly Finding[];
}

/**
 * How a target plans its volume on Linux, and the model of it on a platform without a storage model
 * (targets/<id>/plan.ts); plan/plan.ts assembles the shared parts around it.
 */
export type VolumePlanHook = <T extends VolumePlanTypes>(kit: VolumePlanKit<T>) => VolumePlanPart<T>;

/** One container a benchmark mode measures, made, proven encrypted and registered for tear-down by the target's own code. */
export interface BenchmarkContainer {
  /** The variant its measurements carry (`ioBenchmark.encrypted[].variant`). */
  readonly variant: string;
  /**
   * Creates the container (in the run's work directory, on the shared scratch filesystem or on the raw device),
   * proves it encrypted with the backend's own status tools, and registers everything it made before it exists,
   * so the runner tears it down with `releaseTo(mark)` and `encplan cleanup` after a crash (targets/<id>/benchmark.ts).
   */
  prepare(
    context: TargetContext,
    scratch: ScratchFilesystem,
    rawDevice: string | null,
  ): Promise<PreparedTarget>;
}

/**
 * A benchmark container: what the target's measured volume needs of the machine, how many containers a mode
 * makes, how each is made and proven encrypted, and what it leaves behind to clean up.
 */
export interface TargetBenchmark {
  /** The id its measurements carry in the assessment (`ioBenchmark.encrypted[].backend`). */
  readonly backendId: BackendId;
  /** The wizard's label of the choice. */
  readonly label: string;
  /** How the container is made: a dm-crypt container file, an fscrypt policy on the scratch filesystem… */
  readonly container:
    'dm-crypt-file' | 'fscrypt-directory' | 'veracrypt-file' | 'apfs-image' | 'bitlocker-vhdx';
  /** The platforms whose benchmark can make it. */
  readonly platforms: readonly PlanPlatform[];
  /** Tools every run needs besides fio and the scratch filesystem's. */
  readonly tools: readonly ToolName[];
  /** Kernel features it needs besides the scratch filesystem's. */
  readonly kernel: readonly Capability['id'][];
  /**
   * How the cleanup resource kinds of its own that its containers register are torn down (targets/<id>/cleanup.ts),
   * after each container, at the end of a run and by `encplan cleanup`; the shared kinds (file, directory, loop
   * device, mount) are every run's (targets/teardown-steps.ts). Each kind has exactly one owner.
   */
  readonly cleanup: readonly ResourceTeardown[];
  /** How many containers of its own a mode makes (0: it shares the plain scratch filesystem). */
  containers(mode: IoBenchmarkMode): number;
  /** The containers the Linux/macOS runner measures in a mode, each with its create, prove and tear-down. */
  variants(mode: IoBenchmarkMode): readonly BenchmarkContainer[];
  /** Measured first (it shares the plain scratch filesystem, which the raw-device path releases afterwards). */
  readonly sharesScratchFilesystem: boolean;
  /** It can be measured on a raw block device (false: in a container file only). */
  readonly rawDevice: boolean;
  /** How long setting up one container takes, for the benchmark's ETA (estimates of encplan's, not measured). */
  readonly prepareExpectedMs: number;
  /** What quick mode leaves out of it, for the benchmark's reductions; null: nothing. */
  readonly quickReduction: string | null;
  /**
   * `--backend` may name it, and a run without `--backend` measures it when its tools are present (the Windows
   * benchmark measures BitLocker on its own, so it is not selectable).
   */
  readonly selectable: boolean;
  /** The tool whose presence makes a run without `--backend` measure it (null: always on its platforms). */
  readonly autoTool: ToolName | null;
}

/** A LUKS2 data segment type a target recognises as its own (LUKS2 on OPAL: "hw-opal-crypt", "hw-opal"). */
export interface Luks2SegmentKind {
  readonly type: string;
  /** What the report and the fleet row call such a volume ("LUKS2 + OPAL"). */
  readonly label: string;
  /** dm-crypt encrypts on top (false: the drive's own encryption alone). */
  readonly softwareEncryption: boolean;
  /** What it means for the data, said with an existing volume of this kind (report, plan finding). */
  readonly note: string;
}

/**
 * One encryption target: everything encplan knows about one kind of encrypted volume, in one folder
 * (packages/core/src/targets/<id>/). Nothing outside targets/ compares a target's name; code asks the registry
 * (targets/registry.ts) for the target and reads these fields. CONTRIBUTING.md "Add a target".
 */
export interface EncryptionTarget {
  readonly id: string;
  readonly labels: TargetLabels;
  /** The assessment facts (section paths) the target's rules and admission read. */
  readonly facts: readonly string[];
  /** The platforms it exists on. */
  readonly platforms: readonly PlanPlatform[];
  /** The platforms where it is the plan's default target. */
  readonly defaultOn: readonly PlanPlatform[];
  /** `--target` may name it (plan option). */
  readonly planOption: boolean;
  /**
   * How it recognises an existing volume of its kind: the formats the inventories name
   * (encryption.volumes[].format, platformStorage.encryption[].format), split by whether the volume encrypts,
   * and the stack layer kinds (rules/facts.ts) its open volumes appear as.
   */
  readonly recognition: {
    readonly encryptedFormats: readonly string[];
    readonly unencryptedFormats: readonly string[];
    readonly layerKinds: readonly string[];
    /** Formats whose header stores activation flags (cryptsetup refresh --persistent: LUKS2, not LUKS1). */
    readonly flagsInHeader: readonly string[];
    /** The device-mapper names its own tool gives open volumes (null: none of its own). */
    readonly mappingNames: RegExp | null;
    /** An open volume that never passes discards whatever is asked: why, and how to reopen it so it does. */
    readonly layerDiscards: { readonly reason: string; fix(name: string): string } | null;
    /**
     * LUKS2 data segment types (the header's `segments[].type`, encryption.found[].opal.segmentType) that make a
     * LUKS2 header one of its volumes rather than plain LUKS2's, with what each means (absent: none).
     */
    readonly luks2Segments?: readonly Luks2SegmentKind[];
  };
  /** Whether it may be planned for this drive (absent: always). */
  readonly admit?: (facts: TargetAdmissionFacts) => TargetAdmission;
  /** What the user gives up by choosing it, shown with the plan (absent: nothing beyond the default's). */
  readonly tradeOffs: readonly string[];
  readonly settings: TargetSettingsRules | null;
  /**
   * How it plans itself on a platform whose assessment carries a storage model (macOS, Windows), one hook per
   * platform (plan/plan-platform.ts assembles the plan from it); a platform without a hook gets the volume plan
   * (plan/plan.ts), made from `settings`, `volumePlan` and `commands`. Absent: no hook.
   */
  readonly platformPlans?: { readonly [P in PlanPlatform]?: PlatformPlanHook };
  /**
   * Its own part of the volume plan (targets/<id>/plan.ts): on Linux its key derivation, the cipher it picks and
   * its findings about the host; plan/plan.ts adds what every volume plan shares (health gate, strategy, spare
   * area, discards, predictions, commands, consistency check). Absent: the cipher rules choose, no key
   * derivation of encplan's, no findings of its own.
   */
  readonly volumePlan?: VolumePlanHook;
  readonly commands: TargetCommands | null;
  readonly benchmark: TargetBenchmark | null;
}
