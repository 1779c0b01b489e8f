import type { HostProtectedArea } from '../../domain/space.js';
import { unrecognized } from '../json-reader.js';

/**
 * Parses `hdparm -N DEVICE`: "max sectors   = VISIBLE/NATIVE, HPA is enabled|disabled" (hdparm.c). The
 * hidden bytes use the logical sector size the caller gives (ATA counts in logical sectors). Throws
 * TOOL_OUTPUT_UNRECOGNIZED when there is no such line (virtual disks print nothing useful).
 */
export function parseHdparmNativeMax(text: string, logicalSectorBytes: number): HostProtectedArea {
  const match = /max sectors\s*=\s*(\d+)\/(\d+),\s*HPA is (enabled|disabled)/.exec(text);
  if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) {
    throw unrecognized('hdparm', 'no "max sectors" line');
  }
  const visible = Number(match[1]);
  const native = Number(match[2]);
  return {
    visibleSectors: visible,
    nativeMaxSectors: native,
    enabled: match[3] === 'enabled',
    hiddenBytes: Math.max(0, native - visible) * logicalSectorBytes,
  };
}
