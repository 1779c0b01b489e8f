import { z } from 'zod';
import { factSourceSchema } from './source.js';

/** TRIM at the drive and what the kernel accepts at the disk (Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page, Linux Documentation/ABI/stable/sysfs-block (discard_max_bytes, discard_granularity); lsblk(8) --discard, ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c)). */
export const trimSchema = z.object({
  /** The drive's own answer: ATA DSM TRIM, NVMe Dataset Management, SCSI UNMAP; null when no tool said. */
  deviceSupportsTrim: z.boolean().nullable(),
  mechanism: z.enum(['ata-dsm-trim', 'nvme-deallocate', 'scsi-unmap', 'unknown']),
  /** ATA DRAT / NVMe DLFEAT ≠ 0: reads after TRIM return the same data every time. */
  deterministicReadAfterTrim: z.boolean().nullable(),
  /** ATA RZAT / NVMe DLFEAT = 1 / SCSI LBPRZ: trimmed blocks read as zeros (lsblk DISC-ZERO is not used: always 0). */
  readsZeroesAfterTrim: z.boolean().nullable(),
  /** queue/discard_max_bytes of the disk; 0 means the kernel sends no discards to it. */
  kernelDiscardMaxBytes: z.number().int().nullable(),
  kernelDiscardGranularityBytes: z.number().int().nullable(),
  /** For USB/SCSI disks: the scsi_disk provisioning_mode attribute ("full" = no discard, "unmap", "writesame_16"…). */
  provisioningMode: z.string().nullable(),
  status: z.enum(['supported', 'not-supported', 'blocked-by-bridge', 'blocked-by-kernel', 'unknown']),
  explanation: z.string(),
  /** A command that would change the status, when there is one. */
  fix: z.string().nullable(),
  evidence: z.array(factSourceSchema),
});
export type Trim = z.infer<typeof trimSchema>;

/** The kinds of layer of the block stack (the walk of analyses/discard-passthrough.ts). */
export const discardLayerKindSchema = z.enum([
  'disk',
  'partition',
  'dm-crypt',
  'veracrypt',
  'lvm',
  'md-raid',
  'loop',
  'device-mapper',
  'other',
]);

/** What one layer of the block stack does with discards. */
const discardLayerSchema = z.object({
  kernelName: z.string(),
  path: z.string(),
  kind: discardLayerKindSchema,
  /** dm name for device-mapper layers, md name for arrays. */
  name: z.string().nullable(),
  /** True when discards pass this layer, false when they stop here or below, null when unknown. */
  passesDiscards: z.boolean().nullable(),
  /** True for the lowest layer that stops discards: the one to fix. */
  blocksHere: z.boolean(),
  discardMaxBytes: z.number().int().nullable(),
  reason: z.string(),
  fix: z.string().nullable(),
  source: factSourceSchema,
});
export type DiscardLayer = z.infer<typeof discardLayerSchema>;

/** Whether discards are actually sent: continuously (mount option) or periodically (fstrim.timer). */
const discardIssuingSchema = z.object({
  mountOptionDiscard: z.boolean(),
  fstrimTimerEnabled: z.boolean().nullable(),
  /** ISO-8601 time of fstrim.timer's last run, when systemd knows it. */
  fstrimTimerLastRunAt: z.string().nullable(),
  how: z.enum(['continuous', 'periodic', 'continuous-and-periodic', 'none', 'unknown']),
});

/** One path from a filesystem (or top layer) down to the disk. */
const discardPathSchema = z.object({
  topPath: z.string(),
  mountpoints: z.array(z.string()),
  filesystemType: z.string().nullable(),
  /** From the top layer down to the disk. */
  layers: z.array(discardLayerSchema),
  passesToDisk: z.boolean().nullable(),
  firstBlockingLayer: z.string().nullable(),
  fix: z.string().nullable(),
  issuing: discardIssuingSchema,
  /** True only when discards pass every layer and something issues them. */
  discardsReachDrive: z.boolean().nullable(),
  /** What passing discards through an encryption layer reveals (cryptsetup(8) --allow-discards, crypttab(5) discard; Milan Broz, "TRIM & dm-crypt ... problems?" (2011); cryptsetup FAQ 5.19); empty without one. */
  leaks: z.array(z.string()),
});
export type DiscardPath = z.infer<typeof discardPathSchema>;

/** Discard passthrough for every path of the assessed disk's stack. */
export const discardPassthroughSchema = z.object({
  paths: z.array(discardPathSchema),
  /** raid456.devices_handle_discard_safely, when an md RAID 4/5/6 layer is present. */
  raid456DiscardSafe: z.boolean().nullable(),
});
export type DiscardPassthrough = z.infer<typeof discardPassthroughSchema>;
