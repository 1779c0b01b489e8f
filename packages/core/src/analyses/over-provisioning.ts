import type { OverProvisioning } from '../domain/over-provisioning.js';

/** A never-allocated region of the disk (from the space analysis). */
export interface UnallocatedRegionInput {
  readonly startBytes: number;
  readonly sizeBytes: number;
}

/** A mounted filesystem on the disk and whether its discards reach the drive. */
export interface FilesystemFillInput {
  readonly mountpoint: string;
  readonly sizeBytes: number;
  readonly usedBytes: number;
  readonly discardsReachDrive: boolean | null;
}

/** What assessOverProvisioning needs. */
export interface OverProvisioningInput {
  readonly diskPath: string;
  readonly diskSizeBytes: number;
  readonly unallocatedBytes: number;
  readonly unallocatedRegions: readonly UnallocatedRegionInput[];
  /** True when the user or a probe knows the unallocated space was never written or was discarded. */
  readonly unallocatedKnownTrimmed: boolean | null;
  /** Whether the drive accepts TRIM at all (assessTrim's deviceSupportsTrim / kernel view). */
  readonly trimSupported: boolean | null;
  /**
   * The disk's queue/discard_max_bytes: 0 means the kernel sends the disk no discards, so blkdiscard fails
   * (Linux Documentation/ABI/stable/sysfs-block); null when it was not read.
   */
  readonly discardMaxBytes: number | null;
  readonly rotational: boolean | null;
  readonly nvmeUnallocatedCapacityBytes: number | null;
  readonly factorySpareBytes: number | null;
  readonly filesystems: readonly FilesystemFillInput[];
}

/**
 * Client drives keep about 7 % of their NAND as factory spare (AnandTech 2012, AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create): extra
 * spare below that is "low"; 25 % gives enterprise-like consistency in AnandTech's tests (conclusion text not
 * re-read; the figure is unverified), so it is the line for "generous".
 */
const LOW_SPARE_PERCENT = 7;
const GENEROUS_SPARE_PERCENT = 25;

/**
 * How to discard the never-partitioned regions once, as the plan's spare-area commands do (rules/space.ts
 * tailDiscard): `blkdiscard` only where the kernel is known to send the disk discards (discard_max_bytes > 0).
 * With discard_max_bytes 0 the kernel refuses BLKDISCARD with EOPNOTSUPP ("A discard_max_bytes of 0 means that
 * the device does not support discard functionality", Linux Documentation/ABI/stable/sysfs-block; blkdiscard(8));
 * unread, whether it would work is unknown, and no command is suggested.
 */
function discardAdvice(input: OverProvisioningInput): string[] {
  const name = input.diskPath.replace(/^\/dev\//, '');
  if (input.discardMaxBytes === 0) {
    return [
      `The kernel sends no discards to ${input.diskPath} (discard_max_bytes 0), so blkdiscard cannot free the unallocated space: it counts as spare area only if it was never written.`,
    ];
  }
  if (input.discardMaxBytes === null) {
    return [
      `Whether the kernel sends discards to ${input.diskPath} is unknown (its discard_max_bytes was not read; see /sys/block/${name}/queue/discard_max_bytes), so no blkdiscard is suggested: the unallocated space counts as spare area only if it was never written or has been discarded.`,
    ];
  }
  return input.unallocatedRegions.map(
    (region) =>
      `Discard the unallocated region once so the drive can use it as spare: blkdiscard --offset ${region.startBytes} --length ${region.sizeBytes} ${input.diskPath} (erases only that never-partitioned range).`,
  );
}

/**
 * Judges the spare area the user adds on top of the factory's. Unallocated space counts only when it was
 * never written or has been discarded; filesystem free space counts when discards reach the drive.
 * Worst-case write amplification uses WA = (1+ρ)/(2ρ) (Agarwal & Marrow; AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
 */
export function assessOverProvisioning(input: OverProvisioningInput): OverProvisioning {
  const filesystems = input.filesystems.map((fs) => ({
    mountpoint: fs.mountpoint,
    sizeBytes: fs.sizeBytes,
    usedBytes: fs.usedBytes,
    usedPercent: fs.sizeBytes === 0 ? 0 : Math.round((fs.usedBytes / fs.sizeBytes) * 1000) / 10,
    discardsReachDrive: fs.discardsReachDrive,
  }));
  const unallocatedPercent =
    input.diskSizeBytes === 0 ? 0 : Math.round((input.unallocatedBytes / input.diskSizeBytes) * 1000) / 10;
  const base = {
    diskSizeBytes: input.diskSizeBytes,
    unallocatedBytes: input.unallocatedBytes,
    unallocatedPercent,
    nvmeUnallocatedCapacityBytes: input.nvmeUnallocatedCapacityBytes,
    factorySpareBytes: input.factorySpareBytes,
    filesystems,
  };
  if (input.rotational === true) {
    return {
      ...base,
      status: 'not-applicable',
      unallocatedCountsAsSpare: 'no',
      trimmedFreeBytes: 0,
      effectiveSpareBytes: 0,
      spareFactor: null,
      worstCaseWriteAmplification: null,
      advice: ['A spinning disk has no flash spare area; unallocated space only wastes capacity.'],
    };
  }
  const counts: OverProvisioning['unallocatedCountsAsSpare'] =
    input.unallocatedBytes === 0
      ? 'no'
      : input.unallocatedKnownTrimmed === true
        ? 'yes'
        : input.trimSupported === false
          ? 'no'
          : 'only-if-trimmed';
  const trimmedFreeBytes = filesystems
    .filter((fs) => fs.discardsReachDrive === true)
    .reduce((sum, fs) => sum + Math.max(0, fs.sizeBytes - fs.usedBytes), 0);
  const effectiveSpareBytes =
    (counts === 'yes' ? input.unallocatedBytes : 0) +
    (input.nvmeUnallocatedCapacityBytes ?? 0) +
    trimmedFreeBytes;
  const userBytes = input.diskSizeBytes - effectiveSpareBytes;
  const spareFactor = effectiveSpareBytes > 0 && userBytes > 0 ? effectiveSpareBytes / userBytes : null;
  const advice: string[] = [];
  if (counts === 'only-if-trimmed') {
    advice.push(...discardAdvice(input));
  }
  if (counts === 'no' && input.unallocatedBytes > 0) {
    advice.push(
      'The drive does not accept TRIM, so unallocated space that was ever written cannot become spare area.',
    );
  }
  if (filesystems.some((fs) => fs.discardsReachDrive === false)) {
    advice.push(
      'Free space inside filesystems whose discards do not reach the drive is not spare area once written; fix discard passthrough first.',
    );
  }
  const sparePercent = input.diskSizeBytes === 0 ? 0 : (effectiveSpareBytes / input.diskSizeBytes) * 100;
  let status: OverProvisioning['status'];
  if (effectiveSpareBytes === 0) {
    status = counts === 'only-if-trimmed' ? 'unknown' : 'none';
  } else if (sparePercent < LOW_SPARE_PERCENT) {
    status = 'low';
  } else if (sparePercent < GENEROUS_SPARE_PERCENT) {
    status = 'adequate';
  } else {
    status = 'generous';
  }
  return {
    ...base,
    status,
    unallocatedCountsAsSpare: counts,
    trimmedFreeBytes,
    effectiveSpareBytes,
    spareFactor: spareFactor === null ? null : Math.round(spareFactor * 1000) / 1000,
    worstCaseWriteAmplification:
      spareFactor === null ? null : Math.round(((1 + spareFactor) / (2 * spareFactor)) * 100) / 100,
    advice,
  };
}
