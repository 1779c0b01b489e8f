import type { CipherBenchmark, KernelCryptoFacts } from '../domain/cipher.js';
import { recogniseLuks2Segment, recogniseVolume } from '../targets/registry.js';
import type { Machine } from '../domain/cpu.js';
import type { Disk, Partition, StackNode } from '../domain/device.js';
import type { EncryptionInventory } from '../domain/encryption.js';
import type { Health } from '../domain/health.js';
import type { IoBenchmark } from '../domain/io-benchmark.js';
import type { OverProvisioning } from '../domain/over-provisioning.js';
import type { PlatformStorage } from '../domain/platform-storage.js';
import type { StorageModel } from '../domain/storage-model.js';
import type { Sed } from '../domain/sed.js';
import type { Space } from '../domain/space.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import type { DiscardPassthrough, Trim } from '../domain/trim.js';

/** T with every field at every depth optional: a left-out field is unknown, like null. */
export type DeepPartial<T> = T extends readonly (infer Element)[]
  ? readonly DeepPartial<Element>[]
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * The assessment's fact sections the rules read, typed from their domain schemas (the same sections
 * `encplan assess --json` emits in `result`; docs/json-contract.md). The plan is made from them, so they are not
 * restated anywhere: `use-cases/plan-from-assessment.ts` checks at compile time that an assessment result is one.
 */
export interface AssessedSections {
  readonly provenance: { readonly platform: string };
  /** Linux-shaped sections: null on macOS and Windows, where `storage` (the storage model) carries the facts. */
  readonly disk: Disk | null;
  /** The cross-checked media kind (sysfs against systeminformation). */
  readonly media: { readonly kind: 'ssd' | 'hdd' | 'unknown' } | null;
  readonly partitions: readonly Partition[] | null;
  readonly stack: StackNode | null;
  readonly encryption: EncryptionInventory | null;
  readonly space: Space | null;
  readonly health: Health | null;
  readonly trim: Trim | null;
  readonly discardPassthrough: DiscardPassthrough | null;
  readonly overProvisioning: OverProvisioning | null;
  /** ATA Security state decides whether the plan may secure-erase before hiding a spare area. */
  readonly sed: Sed | null;
  readonly kernelCrypto: KernelCryptoFacts | null;
  readonly cipherBenchmark: CipherBenchmark | null;
  readonly ioBenchmark: IoBenchmark | null;
  readonly machine: Machine | null;
  /**
   * Deprecated (assessment 1.2–1.3 documents and hand-made facts): the macOS/Windows probe set's facts. Read only
   * by the storage model builder (rules/storage-facts.ts); every rule reads the model.
   */
  readonly platformStorage?: PlatformStorage | undefined;
  /** The one storage model (assessment 1.3; on macOS and Windows everything the platform plan reads: 1.4). */
  readonly storage?: StorageModel | undefined;
}

/**
 * What the rules plan from: an assessment result whole or with sections and fields left out. A left-out section
 * or field is unknown, exactly as null is; no rule reads unknown as "no" or "zero".
 */
export type PlanFacts = DeepPartial<AssessedSections>;

/** The operating system the assessment ran on: the first word of provenance.platform (Node's process.platform). */
export function osOf(facts: PlanFacts): 'linux' | 'darwin' | 'win32' | null {
  const name = facts.provenance?.platform?.split(' ')[0];
  return name === 'linux' || name === 'darwin' || name === 'win32' ? name : null;
}

/**
 * True unless the assessment says it ran on macOS or Windows: `encplan assess` runs on Linux only (README), so a
 * document without provenance is planned for Linux.
 */
export function plansForLinux(facts: PlanFacts): boolean {
  const os = osOf(facts);
  return os === null || os === 'linux';
}

/**
 * Whether the drive spins: the cross-checked media kind, else what SMART said (a loop device's sysfs rotational
 * flag describes nothing real, so disk.rotational is not used alone).
 */
export function rotationalOf(facts: PlanFacts): boolean | null {
  const kind = facts.media?.kind;
  if (kind === 'ssd' || kind === 'hdd') {
    return kind === 'hdd';
  }
  return facts.health?.rotational ?? null;
}

/** Where the health facts came from (smartctl and its device type). */
export function healthSourceOf(facts: PlanFacts): FactSource {
  return sourceOf(facts.health?.source ?? 'not measured', facts.health?.smartctlDeviceType ?? null);
}

/** Where the TRIM facts came from. */
export function trimSourceOf(facts: PlanFacts): FactSource {
  const first = facts.trim?.evidence?.[0];
  return first === undefined
    ? sourceOf('encplan assess', 'trim')
    : sourceOf(first.origin ?? 'encplan assess', first.field ?? null);
}

/** The layer kinds a discard can stop at (cryptsetup(8) --allow-discards, crypttab(5) discard; Milan Broz, "TRIM & dm-crypt ... problems?" (2011); cryptsetup FAQ 5.19; lvm.conf issue_discards, lvmthin(7); Linux md raid456 devices_handle_discard_safely; Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page; VeraCrypt src/Core/Unix/Linux/CoreLinux.cpp, veracrypt/VeraCrypt#1186, VeraCrypt documentation "Trim Operation"). */
export type BlockingLayerKind =
  'dm-crypt' | 'lvm' | 'md-raid' | 'loop' | 'usb-bridge' | 'veracrypt' | 'device' | 'other';

/** The first layer that stops discards on their way to the drive. */
export interface BlockingLayer {
  readonly kind: BlockingLayerKind;
  readonly name: string;
}

/** Where discards stop: `known` is false when the passthrough walk did not run or could not decide. */
export interface DiscardStop {
  readonly known: boolean;
  readonly firstBlockingLayer: BlockingLayer | null;
}

const LAYER_KINDS: Readonly<Record<string, BlockingLayerKind>> = {
  'dm-crypt': 'dm-crypt',
  veracrypt: 'veracrypt',
  lvm: 'lvm',
  'md-raid': 'md-raid',
  loop: 'loop',
  disk: 'device',
};

/** The first layer of the existing stack that blocks discards, from the TRIM section and the passthrough walk. */
export function discardStopOf(facts: PlanFacts): DiscardStop {
  const paths = facts.discardPassthrough?.paths ?? [];
  const known = paths.length > 0 && paths.every((path) => typeof path.passesToDisk === 'boolean');
  if (facts.trim?.status === 'blocked-by-bridge') {
    return {
      known: true,
      firstBlockingLayer: { kind: 'usb-bridge', name: facts.disk?.kernelName ?? 'USB bridge' },
    };
  }
  const blockedPath = paths.find((path) => path.passesToDisk === false);
  const layer = blockedPath?.layers?.find((candidate) => candidate.blocksHere === true);
  if (layer === undefined) {
    return { known, firstBlockingLayer: null };
  }
  return {
    known,
    firstBlockingLayer: {
      kind: LAYER_KINDS[layer.kind ?? ''] ?? 'other',
      name: layer.name ?? layer.path ?? layer.kernelName ?? 'unknown layer',
    },
  };
}

/** The last sector (logical, inclusive) of the partition that ends last; null when none is known. */
export function lastPartitionEndSectorOf(facts: PlanFacts): number | null {
  const sector = facts.disk?.logicalSectorBytes;
  const ends = (facts.partitions ?? []).flatMap((partition) =>
    partition.startBytes === undefined || partition.sizeBytes === undefined
      ? []
      : [partition.startBytes + partition.sizeBytes],
  );
  if (sector === undefined || ends.length === 0) {
    return null;
  }
  return Math.ceil(Math.max(...ends) / sector) - 1;
}

/** Encryption already on the device, and the name of its open dm-crypt mapping (LUKS only). */
export interface EncryptionToKeep {
  /** The format the inventory names when a registered target recognises it (targets/registry.ts), else 'other'. */
  readonly kind: string;
  readonly mappingName: string | null;
  /** An open volume of its kind is tuned with cryptsetup refresh (its target's settings.refreshOpenVolume). */
  readonly refreshable: boolean;
  /** Its header stores activation flags (cryptsetup refresh --persistent). */
  readonly storesActivationFlags: boolean;
}

const MAPPING_NAME = /^[A-Za-z0-9_.:-]+$/;

function walk(node: DeepPartial<StackNode>): DeepPartial<StackNode>[] {
  return [node, ...(node.children ?? []).flatMap(walk)];
}

/** The first encryption the inventory found; null when none (or no inventory). */
export function existingEncryptionOf(facts: PlanFacts): EncryptionToKeep | null {
  const found = facts.encryption?.found?.[0];
  if (found === undefined) {
    return null;
  }
  const format = found.format;
  const recognised = recogniseVolume(format);
  const kind = recognised?.encrypted === true && format !== undefined ? format : 'other';
  // A LUKS2 header on an OPAL locking range with no dm-crypt on top (cryptsetup 2.7 --hw-opal-only, segment
  // "hw-opal": lib/luks2/luks2_segment.c) opens as a linear mapping: there are no dm-crypt activation flags for
  // cryptsetup refresh to tune.
  const noSoftwareLayer =
    recogniseLuks2Segment(found.opal?.segmentType)?.segment?.softwareEncryption === false;
  const refreshable = recognised?.target.settings?.refreshOpenVolume === true && !noSoftwareLayer;
  // The open mapping of a LUKS volume is the crypt node above it in the holder stack.
  const mapping =
    facts.stack === undefined || facts.stack === null
      ? undefined
      : walk(facts.stack).find((node) => node.type === 'crypt' && typeof node.mapperName === 'string');
  const name = mapping?.mapperName ?? null;
  // Only plain dm names go into commands (cryptsetup refresh NAME).
  const mappingName = refreshable && name !== null && MAPPING_NAME.test(name) ? name : null;
  return {
    kind,
    mappingName,
    refreshable,
    storesActivationFlags:
      recognised?.target.recognition.flagsInHeader.some((known) => known === format) === true,
  };
}
