import type { OpalLocking } from '../../domain/sed.js';
import { assertInputSize, unrecognized } from '../../parsers/json-reader.js';

/** What `sedutil-cli --query DEVICE` says about the drive's TCG Level 0 Discovery, as far as OPAL needs it. */
export interface OpalDiscovery {
  /** The Opal SSC feature version, e.g. "2.0", "2.15"; null: no Opal SSC feature (0x0200 / 0x0203). */
  readonly opalVersion: string | null;
  /** A Pyrite SSC feature (0x0302 / 0x0303): locking without encryption. */
  readonly pyrite: boolean;
  /** Locking feature (0x0002) LockingSupported; null where this sedutil build does not print it (1.49). */
  readonly lockingSupported: boolean | null;
  /** Locking feature (0x0002): the Locking SP is activated, so locking ranges are in use. */
  readonly lockingEnabled: boolean | null;
  /** A locking range is read- or write-locked now. */
  readonly locked: boolean | null;
  /** The drive encrypts its media (Locking feature MediaEncrypt). */
  readonly mediaEncrypt: boolean | null;
  /** MBR shadowing: supported (1.49 prints "MBR shadowing Not Supported = N"), enabled, and done (shadow hidden). */
  readonly mbrShadowingSupported: boolean | null;
  readonly mbrEnabled: boolean | null;
  readonly mbrDone: boolean | null;
  /** Single User Mode feature (0x0201): the number of locking objects, i.e. the global range plus the ranges. */
  readonly lockingObjects: number | null;
  /** Opal SSC feature: Locking SP admin and user authorities. */
  readonly lockingAdmins: number | null;
  readonly lockingUsers: number | null;
  /** Geometry feature (0x0003): the logical block size and the alignment granularity in bytes. */
  readonly logicalBlockBytes: number | null;
  readonly alignmentBytes: number | null;
}

/** What `sedutil-cli --query DEVICE` gave: the discovery, or why there is none (probes/linux/health.ts). */
export type OpalQuery =
  | { readonly discovery: OpalDiscovery; readonly unknownReason: null }
  | { readonly discovery: null; readonly unknownReason: string };

const TOOL = 'sedutil-cli';

function flag(block: string, name: string): boolean | null {
  const match = new RegExp(`\\b${name} = ([YN])\\b`).exec(block);
  return match === null ? null : match[1] === 'Y';
}

function notFlag(value: boolean | null): boolean | null {
  return value === null ? null : !value;
}

function count(block: string, name: string): number | null {
  const match = new RegExp(`\\b${name} = (\\d+)`).exec(block);
  return match === null ? null : Number(match[1]);
}

/**
 * Parses `sedutil-cli --query DEVICE`: a header line naming the device, then one "<Name> function (0xCODE)"
 * line per TCG Level 0 Discovery feature followed by its indented "Key = value" lines (sedutil
 * Common/DtaDev.cpp puke(); feature codes from the TCG Storage Opal SSC and Pyrite SSC specifications:
 * 0x0002 Locking, 0x0003 Geometry, 0x0201 Single User Mode, 0x0203 Opal SSC 2, 0x0302/0x0303 Pyrite 1/2).
 * Two layouts are known: older builds print `LockingSupported = Y`, 1.49 prints "MBR shadowing Not Supported" in
 * its place. Throws TOOL_OUTPUT_UNRECOGNIZED when no feature block is there (the drive did not answer).
 */
export function parseSedutilQuery(text: string): OpalDiscovery {
  assertInputSize(TOOL, text);
  const blocks = new Map<number, string>();
  let current: number | null = null;
  for (const line of text.split(/\r?\n/)) {
    const feature = /^(\S.*?) function \(0x([0-9A-Fa-f]{4})\)\s*$/.exec(line);
    if (feature !== null) {
      current = Number.parseInt(feature[2] ?? '', 16);
      blocks.set(current, `${feature[1] ?? ''}\n`);
    } else if (current !== null && /^\s+\S/.test(line)) {
      blocks.set(current, `${blocks.get(current) ?? ''}${line.trim()}\n`);
    } else if (line.trim() !== '') {
      current = null;
    }
  }
  if (!blocks.has(0x0001) && !blocks.has(0x0002)) {
    throw unrecognized(TOOL, 'no TPer or Locking feature in the Level 0 Discovery listing');
  }
  const locking = blocks.get(0x0002) ?? '';
  const opal = blocks.get(0x0203) ?? blocks.get(0x0200) ?? null;
  const geometry = blocks.get(0x0003) ?? '';
  const granularity = count(geometry, 'Alignment Granularity');
  const logicalBlockBytes = count(geometry, 'Logical Block size');
  return {
    opalVersion: opal === null ? null : (/OPAL (\d+(?:\.\d+)?)/i.exec(opal)?.[1] ?? null),
    pyrite: blocks.has(0x0302) || blocks.has(0x0303),
    lockingSupported: flag(locking, 'LockingSupported'),
    lockingEnabled: flag(locking, 'LockingEnabled'),
    locked: flag(locking, 'Locked'),
    mediaEncrypt: flag(locking, 'MediaEncrypt'),
    mbrShadowingSupported: notFlag(flag(locking, 'MBR shadowing Not Supported')),
    mbrEnabled: flag(locking, 'MBREnabled'),
    mbrDone: flag(locking, 'MBRDone'),
    lockingObjects: count(blocks.get(0x0201) ?? '', 'Locking Objects'),
    lockingAdmins: count(opal ?? '', 'Locking Admins'),
    lockingUsers: count(opal ?? '', 'Locking Users'),
    logicalBlockBytes,
    alignmentBytes:
      granularity === null || logicalBlockBytes === null ? null : granularity * logicalBlockBytes,
  };
}

/**
 * The locking state of the sed section from a `sedutil-cli --query` answer. Without one every field is null and
 * `unknownReason` says why: a missing tool is never a "no".
 */
export function opalLockingOf(query: OpalQuery): OpalLocking {
  const found = query.discovery;
  return {
    supported: found?.lockingSupported ?? null,
    enabled: found?.lockingEnabled ?? null,
    locked: found?.locked ?? null,
    mediaEncrypt: found?.mediaEncrypt ?? null,
    mbrShadowing: {
      supported: found?.mbrShadowingSupported ?? null,
      enabled: found?.mbrEnabled ?? null,
      done: found?.mbrDone ?? null,
    },
    // Single User Mode "Locking Objects" counts the global range too (TCG Opal SSC Feature Set: Single User Mode).
    rangesBesidesGlobal:
      found?.lockingObjects === null || found?.lockingObjects === undefined ? null : found.lockingObjects - 1,
    unknownReason: query.unknownReason,
  };
}
