import type {
  AtaSecurityState,
  SecurityCapability,
  TrimCapability,
} from '../../domain/drive-capabilities.js';
import { assertInputSize, unrecognized } from '../json-reader.js';

const TOOL = 'hdparm';

/** What `hdparm -I` says about one ATA drive. */
export interface HdparmIdentify {
  readonly model: string | null;
  readonly firmware: string | null;
  /** False for "Nominal Media Rotation Rate: Solid State Device", true for an RPM, null when absent. */
  readonly rotational: boolean | null;
  readonly trim: TrimCapability;
  /** "Data Set Management TRIM supported (limit N blocks)": 512-byte-range blocks per command. */
  readonly trimLimitBlocks: number | null;
  readonly security: SecurityCapability;
}

function valueAfter(lines: readonly string[], label: string): string | null {
  const line = lines.find((candidate) => candidate.trimStart().startsWith(label));
  const value = line?.trimStart().slice(label.length).trim();
  return value === undefined || value === '' ? null : value;
}

function readSecurity(lines: readonly string[]): AtaSecurityState | null {
  const start = lines.findIndex((line) => /^Security:/.test(line));
  if (start < 0) {
    return null;
  }
  const state: Record<'supported' | 'enabled' | 'locked' | 'frozen' | 'enhancedErase', boolean | null> = {
    supported: null,
    enabled: null,
    locked: null,
    frozen: null,
    enhancedErase: null,
  };
  for (const line of lines.slice(start + 1)) {
    // The section ends at the next unindented heading ("Logical Unit WWN…", "Checksum:").
    if (!/^\s/.test(line)) {
      break;
    }
    const words = line.trim().split(/\s+/);
    const negated = words[0] === 'not';
    const rest = (negated ? words.slice(1) : words).join(' ');
    if (rest === 'supported') {
      state.supported = !negated;
    } else if (rest === 'enabled' || rest === 'locked' || rest === 'frozen') {
      state[rest] = !negated;
    } else if (rest === 'supported: enhanced erase') {
      state.enhancedErase = !negated;
    }
  }
  return { ...state, origin: TOOL, field: 'Security' };
}

/**
 * Parses `hdparm -I` text (tabs or spaces, LF or CRLF): TRIM and deterministic/zeroed reads after TRIM
 * (IDENTIFY words 169 and 69, ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c)), the ATA Security state and Trusted Computing (sedutil-cli --scan; TCG Storage Opal SSC Level 0 Discovery; NVMe OACS bit 0).
 * Throws TOOL_OUTPUT_UNRECOGNIZED for text that is not an ATA IDENTIFY dump.
 */
export function parseHdparmIdentify(text: string): HdparmIdentify {
  assertInputSize(TOOL, text);
  const lines = text.split(/\r?\n/);
  if (
    !lines.some((line) => /^ATA device\b/.test(line)) ||
    !lines.some((line) => /^\s*Model Number:/.test(line))
  ) {
    throw unrecognized(TOOL, 'not `hdparm -I` output of an ATA device');
  }
  // hdparm -I ends with the IDENTIFY checksum line; without it the output was cut short, and a missing TRIM
  // line would wrongly read as "no TRIM".
  if (!lines.some((line) => line.startsWith('Checksum:'))) {
    throw unrecognized(TOOL, 'the output ends before the "Checksum:" line (truncated)');
  }
  const features = lines.map((line) => line.replace(/^\s*\*?\s*/, '').trim());
  const trimLine = features.find((line) => line.startsWith('Data Set Management TRIM supported'));
  const limit = trimLine === undefined ? null : /\(limit (\d+) blocks?\)/.exec(trimLine);
  const zeroed = features.includes('Deterministic read ZEROs after TRIM');
  const deterministic = zeroed || features.includes('Deterministic read data after TRIM');
  const rotation = valueAfter(lines, 'Nominal Media Rotation Rate:');
  return {
    model: valueAfter(lines, 'Model Number:'),
    firmware: valueAfter(lines, 'Firmware Revision:'),
    rotational: rotation === null ? null : rotation !== 'Solid State Device',
    trim: {
      supported: trimLine !== undefined,
      deterministic: trimLine === undefined ? null : deterministic,
      zeroed: trimLine === undefined ? null : zeroed,
      mechanism: 'ata-dsm-trim',
      origin: TOOL,
      field: 'Commands/features',
    },
    trimLimitBlocks: limit?.[1] === undefined ? null : Number(limit[1]),
    security: {
      nvmeSecuritySendReceive: null,
      nvmeNamespaceManagement: null,
      ataTrustedComputing: features.some((line) => line.startsWith('Trusted Computing')),
      ataSecurity: readSecurity(lines),
      origin: TOOL,
    },
  };
}
