import type { DiscardLimits } from '../domain/device.js';
import type { TrimCapability } from '../domain/drive-capabilities.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import type { Trim } from '../domain/trim.js';

/** What assessTrim needs: every tool's answer about the drive, and the disk's sysfs view. */
export interface TrimInput {
  /** Answers in priority order (smartctl, nvme id-ctrl, nvme id-ns, hdparm); the first non-null value wins. */
  readonly capabilities: readonly TrimCapability[];
  readonly diskKernelName: string;
  readonly diskDiscard: DiscardLimits | null;
  readonly provisioningMode: string | null;
  readonly transport: string | null;
}

function firstKnown(
  capabilities: readonly TrimCapability[],
  key: 'supported' | 'deterministic' | 'zeroed',
): { value: boolean; from: TrimCapability } | null {
  for (const capability of capabilities) {
    const value = capability[key];
    if (value !== null) {
      return { value, from: capability };
    }
  }
  return null;
}

/**
 * Combines the drive's TRIM capability with what the kernel exposes at the disk. lsblk's DISC-ZERO is
 * never used: it has been hard-wired to 0 since Linux 4.12 (Linux Documentation/ABI/stable/sysfs-block (discard_max_bytes, discard_granularity); lsblk(8) --discard).
 */
export function assessTrim(input: TrimInput): Trim {
  const supported = firstKnown(input.capabilities, 'supported');
  const deterministic = firstKnown(input.capabilities, 'deterministic');
  const zeroed = firstKnown(input.capabilities, 'zeroed');
  const evidence: FactSource[] = [supported, deterministic, zeroed]
    .filter((known) => known !== null)
    .map((known) => sourceOf(known.from.origin, known.from.field))
    .filter(
      (source, index, all) =>
        all.findIndex((other) => other.origin === source.origin && other.field === source.field) === index,
    );
  const queue = `/sys/block/${input.diskKernelName}/queue/discard_max_bytes`;
  const maxBytes = input.diskDiscard?.maxBytes ?? null;
  if (maxBytes !== null) {
    evidence.push(sourceOf(queue, null));
  }
  const kernelAccepts = maxBytes === null ? null : maxBytes > 0;
  let status: Trim['status'] = 'unknown';
  let explanation = 'Neither the drive nor the kernel said whether TRIM works.';
  let fix: string | null = null;
  if (kernelAccepts === true) {
    status = 'supported';
    explanation = `The kernel sends discards to ${input.diskKernelName} (discard_max_bytes ${maxBytes}).`;
  } else if (kernelAccepts === false && supported?.value === true) {
    const usb = input.transport === 'usb' || input.provisioningMode === 'full';
    status = usb ? 'blocked-by-bridge' : 'blocked-by-kernel';
    explanation = usb
      ? `The drive supports TRIM but the USB bridge does not advertise it (provisioning_mode ${input.provisioningMode ?? 'unknown'}): the kernel sends no discards (Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page).`
      : 'The drive supports TRIM but the kernel sends it no discards (a controller, driver quirk or virtual disk in between).';
    fix = usb
      ? 'At your own risk, set provisioning_mode=unmap with a udev rule for this bridge (ATTRS{idVendor}/ATTRS{idProduct}, SUBSYSTEM=="scsi_disk", ATTR{provisioning_mode}="unmap"); check `sg_vpd -p lbpv` first (Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page).'
      : null;
  } else if (supported?.value === false) {
    status = 'not-supported';
    explanation = 'The drive does not support TRIM/UNMAP; spare area cannot be given back to it.';
  } else if (kernelAccepts === false) {
    status = 'not-supported';
    explanation = `The kernel sends no discards to ${input.diskKernelName} (discard_max_bytes 0) and no tool says the drive supports TRIM.`;
  }
  return {
    deviceSupportsTrim: supported?.value ?? null,
    mechanism: supported?.from.mechanism ?? input.capabilities[0]?.mechanism ?? 'unknown',
    deterministicReadAfterTrim: deterministic?.value ?? null,
    readsZeroesAfterTrim: zeroed?.value ?? null,
    kernelDiscardMaxBytes: maxBytes,
    kernelDiscardGranularityBytes: input.diskDiscard?.granularityBytes ?? null,
    provisioningMode: input.provisioningMode,
    status,
    explanation,
    fix,
    evidence,
  };
}
