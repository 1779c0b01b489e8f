import { VERACRYPT_MAPPING } from '../domain/storage-model.js';
import type { StackNode } from '../domain/device.js';
import { sourceOf } from '../domain/source.js';
import {
  discardLayerKindSchema,
  type DiscardLayer,
  type DiscardPassthrough,
  type DiscardPath,
} from '../domain/trim.js';
import { targetOfLayer, targetOfMapping } from '../targets/registry.js';
import type { DiscardStackFacts } from '../probes/linux/discard-stack.js';

/** What passing discards through an encryption layer reveals, and what it does not (cryptsetup(8) --allow-discards, crypttab(5) discard; Milan Broz, "TRIM & dm-crypt ... problems?" (2011); cryptsetup FAQ 5.19). */
const LEAKS = [
  'Discarded blocks are visible on the raw device, so the used/free map, and from it the filesystem type and fill level, can be read by anyone with the disk (cryptsetup(8) --allow-discards warning; Milan Broz, "TRIM & dm-crypt ... problems?", 2011).',
  'Plausible deniability of hidden volumes is lost (cryptsetup refuses --allow-discards with --tcrypt-hidden: cryptsetup-open(8)).',
  'File contents and keys are not revealed (Milan Broz, "TRIM & dm-crypt ... problems?", 2011).',
] as const;
const ZEROES_LEAK =
  'This drive reads trimmed blocks as zeros (RZAT/DLFEAT), so the free-space map is exact rather than inferred (ATA IDENTIFY word 69 bit 5, NVMe DLFEAT).';

type Kind = DiscardLayer['kind'];

function kindOf(node: StackNode): Kind {
  const name = node.mapperName ?? node.kernelName;
  switch (node.type) {
    case 'disk':
      return 'disk';
    case 'part':
      return 'partition';
    case 'crypt': {
      // A target whose tool names its own mappings (VeraCrypt's veracryptN), else a cryptsetup dm-crypt mapping.
      const own = discardLayerKindSchema.safeParse(targetOfMapping(name)?.recognition.layerKinds[0]);
      return own.success ? own.data : 'dm-crypt';
    }
    case 'lvm':
      return 'lvm';
    case 'raid0':
    case 'raid1':
    case 'raid4':
    case 'raid5':
    case 'raid6':
    case 'raid10':
    case 'md':
      return 'md-raid';
    case 'loop':
      return 'loop';
    case 'dm':
      if (VERACRYPT_MAPPING.test(name)) {
        return 'veracrypt';
      }
      return node.dmUuid?.startsWith('LVM-') === true
        ? 'lvm'
        : node.dmUuid?.startsWith('CRYPT-') === true
          ? 'dm-crypt'
          : 'device-mapper';
    case 'rom':
    case 'other':
      return 'other';
  }
}

interface LocalVerdict {
  readonly passes: boolean | null;
  readonly reason: string;
  readonly fix: string | null;
}

function cryptFix(node: StackNode, facts: DiscardStackFacts): string {
  const name = node.mapperName ?? node.kernelName;
  const uuid = node.dmUuid ?? '';
  const crypttabEntry = facts.crypttab?.find((entry) => entry.name === name) ?? null;
  const crypttabNote =
    crypttabEntry !== null && !crypttabEntry.discard
      ? ` and add "discard" to the options of ${name} in /etc/crypttab`
      : '';
  if (uuid.startsWith('CRYPT-TCRYPT')) {
    return `cryptsetup close ${name} && cryptsetup open --type tcrypt --allow-discards <device> ${name} (never for hidden volumes: cryptsetup-open(8))`;
  }
  if (uuid.startsWith('CRYPT-LUKS2')) {
    return `cryptsetup refresh ${name} --allow-discards --persistent${crypttabNote}`;
  }
  // LUKS1 and plain dm-crypt cannot store the flag: it must be given at every open (crypttab "discard").
  return `cryptsetup refresh ${name} --allow-discards and add "discard" to the options of ${name} in /etc/crypttab`;
}

/** The verdict of a layer that has nothing to change: what it says when it passes discards, and when not. */
function withoutFix(passes: boolean, passing: string, notPassing: string): LocalVerdict {
  return { passes, reason: passes ? passing : notPassing, fix: null };
}

function localVerdict(node: StackNode, kind: Kind, facts: DiscardStackFacts): LocalVerdict {
  const maxBytes = node.discard?.maxBytes ?? null;
  const name = node.mapperName ?? node.kernelName;
  const never = targetOfLayer(kind)?.recognition.layerDiscards ?? null;
  if (never !== null) {
    return { passes: false, reason: never.reason, fix: never.fix(name) };
  }
  if (maxBytes === null) {
    return { passes: null, reason: 'queue/discard_max_bytes could not be read.', fix: null };
  }
  const passes = maxBytes > 0;
  switch (kind) {
    case 'dm-crypt': {
      const table = facts.dmTables[name]?.find((line) => line.crypt !== null)?.crypt ?? null;
      const persistent =
        (facts.luksFlags[name] ?? []).includes('allow-discards') ||
        (facts.crypttab?.find((entry) => entry.name === name)?.discard ?? false);
      if (passes) {
        const persistence = persistent
          ? ''
          : node.dmUuid?.startsWith('CRYPT-LUKS2') === true
            ? ` Not persistent (no LUKS2 flag or crypttab "discard"): make it so with cryptsetup refresh ${name} --allow-discards --persistent.`
            : '';
        return {
          passes,
          reason: `dm-crypt passes discards (${table?.allowDiscards === true ? 'table option allow_discards' : `discard_max_bytes ${maxBytes}`}).${persistence}`,
          fix: null,
        };
      }
      const why =
        table === null
          ? 'dm-crypt passes no discards (discard_max_bytes 0): it is never enabled by default (cryptsetup(8) --allow-discards)'
          : 'the dm-crypt table has no allow_discards option: discards are never enabled by default (cryptsetup(8) --allow-discards)';
      const header = (facts.luksFlags[name] ?? []).includes('allow-discards')
        ? ' The LUKS2 header has allow-discards, but this mapping was opened without it.'
        : '';
      return { passes, reason: `${why}.${header}`, fix: cryptFix(node, facts) };
    }
    case 'md-raid': {
      const parity = node.type === 'raid4' || node.type === 'raid5' || node.type === 'raid6';
      if (!passes && parity && facts.raid456DiscardSafe !== true) {
        return {
          passes,
          reason:
            'md RAID 4/5/6 drops discards unless raid456.devices_handle_discard_safely=Y, because parity needs discarded blocks to read back as zeros (Linux md raid456 devices_handle_discard_safely).',
          fix: 'only if every member reads zeros after TRIM: echo Y > /sys/module/raid456/parameters/devices_handle_discard_safely, and add "options raid456 devices_handle_discard_safely=Y" to /etc/modprobe.d/raid456.conf',
        };
      }
      return withoutFix(
        passes,
        `md RAID passes discards (discard_max_bytes ${maxBytes}).`,
        'md RAID passes no discards (discard_max_bytes 0).',
      );
    }
    case 'lvm':
      return {
        passes,
        reason: passes
          ? `LVM passes discards without issue_discards (discard_max_bytes ${maxBytes}; lvm.conf issue_discards).`
          : 'This LVM volume passes no discards (a thin pool with discards=ignore, or a segment type without discard support).',
        fix: passes ? null : 'for a thin pool: lvchange --discards passdown VG/POOL (lvmthin(7))',
      };
    case 'loop':
      return withoutFix(
        passes,
        `The loop device punches holes in its backing file (discard_max_bytes ${maxBytes}).`,
        "The loop device's backing file or filesystem does not support discard.",
      );
    case 'disk':
      return withoutFix(
        passes,
        `The disk accepts discards (discard_max_bytes ${maxBytes}).`,
        'The disk accepts no discards (discard_max_bytes 0): see the TRIM section.',
      );
    // partition, device-mapper, other, and an encryption layer of a target with no discard rule of its own.
    default:
      return withoutFix(
        passes,
        `Passes discards (discard_max_bytes ${maxBytes}).`,
        'Passes no discards (discard_max_bytes 0).',
      );
  }
}

function issuingOf(top: StackNode, facts: DiscardStackFacts): DiscardPath['issuing'] {
  const mounts = facts.mounts?.filter((mount) => mount.deviceNumber === top.deviceNumber) ?? [];
  // ext4/xfs "discard", btrfs "discard" or "discard=async" (mount(8), btrfs(5)).
  const mountOptionDiscard = mounts.some((mount) =>
    mount.options.some((option) => option === 'discard' || option.startsWith('discard=')),
  );
  const timer = facts.fstrimTimer?.enabled ?? null;
  return {
    mountOptionDiscard,
    fstrimTimerEnabled: timer,
    fstrimTimerLastRunAt: facts.fstrimTimer?.lastRunAt ?? null,
    how: howIssued(mountOptionDiscard, timer),
  };
}

/** Who sends discards: the filesystem as it frees blocks (mount option), fstrim.timer now and then, both, or none. */
function howIssued(mountOptionDiscard: boolean, timer: boolean | null): DiscardPath['issuing']['how'] {
  if (mountOptionDiscard) {
    return timer === true ? 'continuous-and-periodic' : 'continuous';
  }
  if (timer === true) {
    return 'periodic';
  }
  return timer === false ? 'none' : 'unknown';
}

function pathsOf(node: StackNode, below: readonly StackNode[]): StackNode[][] {
  const chain = [...below, node];
  const here =
    node.children.length === 0 || node.mountpoints.length > 0 || node.filesystem !== null ? [chain] : [];
  return [...here, ...node.children.flatMap((child) => pathsOf(child, chain))];
}

function analysePath(chain: readonly StackNode[], facts: DiscardStackFacts): DiscardPath {
  const top = chain[chain.length - 1] ?? chain[0];
  if (top === undefined) {
    throw new RangeError('a discard path needs at least one layer');
  }
  const verdicts = chain.map((node) => {
    const kind = kindOf(node);
    return { node, kind, local: localVerdict(node, kind, facts) };
  });
  const blockingIndex = verdicts.findIndex((verdict) => verdict.local.passes === false);
  const unknown = verdicts.some((verdict) => verdict.local.passes === null);
  const layers: DiscardLayer[] = verdicts.map(({ node, kind, local }, index) => {
    const blockedBelow = blockingIndex >= 0 && index > blockingIndex;
    const blocking = blocked(blockingIndex, index);
    const blocker = verdicts[blockingIndex]?.node;
    return {
      kernelName: node.kernelName,
      path: node.path,
      kind,
      name: node.mapperName,
      passesDiscards: blockedBelow ? false : local.passes,
      blocksHere: blocking,
      discardMaxBytes: node.discard?.maxBytes ?? null,
      // Queue limits stack: once a lower layer takes no discards, every layer above reports 0 too.
      reason: blockedBelow ? `Blocked below, at ${blocker?.path ?? 'a lower layer'}.` : local.reason,
      fix: blocking ? local.fix : null,
      source:
        (targetOfLayer(kind)?.recognition.layerDiscards ?? null) !== null
          ? sourceOf('dmsetup', 'name')
          : sourceOf(`/sys/class/block/${node.kernelName}/queue/discard_max_bytes`, null),
    };
  });
  layers.reverse();
  const passesToDisk = blockingIndex >= 0 ? false : unknown ? null : true;
  const blockingLayer = layers.find((layer) => layer.blocksHere) ?? null;
  const issuing = issuingOf(top, facts);
  const issued = issuing.how === 'none' ? false : issuing.how === 'unknown' ? null : true;
  const encrypted = verdicts.some((verdict) => targetOfLayer(verdict.kind) !== null);
  return {
    topPath: top.path,
    mountpoints: [...top.mountpoints],
    filesystemType: top.filesystem?.type ?? null,
    layers,
    passesToDisk,
    firstBlockingLayer: blockingLayer?.path ?? null,
    fix: blockingLayer?.fix ?? null,
    issuing,
    discardsReachDrive:
      passesToDisk === false || issued === false
        ? false
        : passesToDisk === true && issued === true
          ? true
          : null,
    leaks: encrypted ? [...LEAKS, ...(facts.readsZeroesAfterTrim === true ? [ZEROES_LEAK] : [])] : [],
  };
}

function blocked(blockingIndex: number, index: number): boolean {
  return blockingIndex >= 0 && index === blockingIndex;
}

/**
 * Walks every path from the disk up to each filesystem (or top layer) and reports, layer by layer, whether
 * discards pass (sysfs queue/discard_max_bytes; Linux Documentation/ABI/stable/sysfs-block (discard_max_bytes, discard_granularity); lsblk(8) --discard), the lowest layer that stops them with
 * the exact fix, whether anything issues discards (discard mount option, fstrim.timer) and what passing them
 * through encryption leaks. Pure: `root` is the disk's StackNode, `facts` what probeDiscardStack gathered.
 */
export function analyseDiscardPassthrough(root: StackNode, facts: DiscardStackFacts): DiscardPassthrough {
  const hasParityRaid = (node: StackNode): boolean =>
    node.type === 'raid4' ||
    node.type === 'raid5' ||
    node.type === 'raid6' ||
    node.children.some(hasParityRaid);
  return {
    paths: pathsOf(root, []).map((chain) => analysePath(chain, facts)),
    raid456DiscardSafe: hasParityRaid(root) ? facts.raid456DiscardSafe : null,
  };
}
