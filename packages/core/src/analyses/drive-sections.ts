import type { Disk, StackNode } from '../domain/device.js';
import type { Health } from '../domain/health.js';
import type { OverProvisioning } from '../domain/over-provisioning.js';
import type { Sed } from '../domain/sed.js';
import type { z } from 'zod';
import type { nvmeCapacitySchema, Space } from '../domain/space.js';
import type { DiscardPassthrough, Trim } from '../domain/trim.js';
import type { HdparmIdentify } from '../parsers/hdparm/identify.js';
import type { NvmeIdCtrl } from '../parsers/nvme/id-ctrl.js';
import type { NvmeIdNs } from '../parsers/nvme/id-ns.js';
import type { SedutilScanEntry } from '../parsers/sedutil/scan.js';
import type { SecurityCapability, TrimCapability } from '../domain/drive-capabilities.js';
import { analyseDiscardPassthrough } from './discard-passthrough.js';
import type { DiscardStackFacts } from '../probes/linux/discard-stack.js';
import { assessOverProvisioning, type FilesystemFillInput } from './over-provisioning.js';
import { assessSed } from './sed.js';
import type { OpalQuery } from '../targets/luks2-opal/sedutil-query.js';
import { assessTrim } from './trim.js';

/** Everything probeHealth found: the health section and the drive's TRIM and security capabilities. */
export interface DriveHealthFacts {
  readonly health: Health;
  /** In priority order for assessTrim: smartctl, nvme id-ctrl, nvme id-ns, hdparm. */
  readonly trimCapabilities: readonly TrimCapability[];
  readonly securityCapabilities: readonly SecurityCapability[];
  readonly nvmeIdCtrl: NvmeIdCtrl | null;
  readonly nvmeIdNs: NvmeIdNs | null;
  readonly hdparm: HdparmIdentify | null;
  readonly sedutil: SedutilScanEntry | null;
  /** `sedutil-cli --query` of the drive, or why it was not read; absent: not asked (replays of older bundles). */
  readonly opalQuery?: OpalQuery;
  /** The SCSI disk's provisioning_mode ("full" = the kernel sends no discards), for USB and SCSI disks. */
  readonly provisioningMode: string | null;
}

/** The drive sections of an assessment: health, TRIM, discard passthrough, SED and spare area. */
export interface DriveSections {
  readonly health: Health;
  readonly trim: Trim;
  readonly discardPassthrough: DiscardPassthrough;
  readonly sed: Sed;
  readonly overProvisioning: OverProvisioning;
}

function mountedFilesystems(node: StackNode, passthrough: DiscardPassthrough): FilesystemFillInput[] {
  const here: FilesystemFillInput[] = [];
  const fs = node.filesystem;
  const usedPercent = fs?.usedPercent ?? null;
  if (usedPercent !== null && node.mountpoints.length > 0) {
    const path = passthrough.paths.find((candidate) => candidate.topPath === node.path);
    here.push({
      mountpoint: node.mountpoints[0] ?? node.path,
      sizeBytes: node.sizeBytes,
      usedBytes: Math.round((node.sizeBytes * usedPercent) / 100),
      discardsReachDrive: path?.discardsReachDrive ?? null,
    });
  }
  return [...here, ...node.children.flatMap((child) => mountedFilesystems(child, passthrough))];
}

/**
 * Combines what probeHealth and probeDiscardStack found with the inventory (disk, stack, space) into the
 * five drive sections. Pure: the use case calls the probes, then this.
 */
export function assessDriveSections(input: {
  /** `rotational` null: the media is unknown (virtual and loop disks), whatever sysfs's flag says. */
  readonly disk: Pick<Disk, 'path' | 'kernelName' | 'transport' | 'sizeBytes'> & {
    readonly rotational: boolean | null;
  };
  readonly stack: StackNode;
  readonly space: Pick<Space, 'unallocatedBytes' | 'regions' | 'nvme'> | null;
  readonly drive: DriveHealthFacts;
  readonly discard: Omit<DiscardStackFacts, 'readsZeroesAfterTrim'>;
}): DriveSections {
  const trim = assessTrim({
    capabilities: input.drive.trimCapabilities,
    diskKernelName: input.disk.kernelName,
    diskDiscard: input.stack.discard,
    provisioningMode: input.drive.provisioningMode,
    transport: input.disk.transport,
  });
  const discardPassthrough = analyseDiscardPassthrough(input.stack, {
    ...input.discard,
    readsZeroesAfterTrim: trim.readsZeroesAfterTrim,
  });
  const overProvisioning = assessOverProvisioning({
    diskPath: input.disk.path,
    diskSizeBytes: input.disk.sizeBytes,
    unallocatedBytes: input.space?.unallocatedBytes ?? 0,
    unallocatedRegions: input.space?.regions ?? [],
    unallocatedKnownTrimmed: null,
    trimSupported: trim.status === 'supported' ? true : trim.status === 'unknown' ? null : false,
    discardMaxBytes: trim.kernelDiscardMaxBytes,
    rotational: input.drive.health.rotational ?? input.disk.rotational,
    nvmeUnallocatedCapacityBytes:
      input.space?.nvme?.unallocatedCapacityBytes ?? input.drive.nvmeIdCtrl?.unallocatedCapacityBytes ?? null,
    factorySpareBytes: null,
    filesystems: mountedFilesystems(input.stack, discardPassthrough),
  });
  return {
    health: input.drive.health,
    trim,
    discardPassthrough,
    sed: assessSed(input.drive.securityCapabilities, input.drive.sedutil, input.drive.opalQuery ?? null),
    overProvisioning,
  };
}

/** NUSE × LBA size, or null when either is unknown. */
function utilizationBytesOf(ns: NvmeIdNs | null): number | null {
  return ns?.utilizationBlocks === null ||
    ns?.utilizationBlocks === undefined ||
    ns.logicalBlockBytes === null
    ? null
    : ns.utilizationBlocks * ns.logicalBlockBytes;
}

/**
 * The NVMe capacity part of the space section (TNVMCAP, UNVMCAP, namespace size, OACS bit 3) from the Identify
 * data probeHealth read; null when the drive is not NVMe or nvme-cli did not answer (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
 */
export function nvmeCapacityOf(
  drive: Pick<DriveHealthFacts, 'nvmeIdCtrl' | 'nvmeIdNs'>,
): z.infer<typeof nvmeCapacitySchema> | null {
  const ctrl = drive.nvmeIdCtrl;
  if (ctrl === null) {
    return null;
  }
  const safe = (value: number | null): number | null =>
    value !== null && Number.isSafeInteger(value) ? value : null;
  return {
    totalCapacityBytes: safe(ctrl.totalCapacityBytes),
    unallocatedCapacityBytes: safe(ctrl.unallocatedCapacityBytes),
    namespaceSizeBytes: safe(drive.nvmeIdNs?.sizeBytes ?? null),
    namespaceManagementSupported: ctrl.security.nvmeNamespaceManagement,
    namespaceUtilizationBytes: safe(utilizationBytesOf(drive.nvmeIdNs)),
  };
}
