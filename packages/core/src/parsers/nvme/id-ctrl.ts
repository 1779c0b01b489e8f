import type { SecurityCapability, TrimCapability } from '../../domain/drive-capabilities.js';
import { counterAt, numberAt, parseJsonObject, stringAt, unrecognized } from '../json-reader.js';

const TOOL = 'nvme';

/** What `nvme id-ctrl -o json` says about capacity, TRIM and security. */
export interface NvmeIdCtrl {
  readonly model: string | null;
  /** TNVMCAP: total NVM capacity in bytes (0 when the drive does not report it). */
  readonly totalCapacityBytes: number | null;
  /** The same, exact, because TNVMCAP is a 128-bit field. */
  readonly totalCapacityBytesExact: string | null;
  /** UNVMCAP: capacity not allocated to any namespace, in bytes: spare area reserved at namespace level. */
  readonly unallocatedCapacityBytes: number | null;
  readonly unallocatedCapacityBytesExact: string | null;
  /** NN: number of namespaces the controller supports. */
  readonly namespaceCount: number | null;
  readonly oacs: number;
  readonly oncs: number;
  readonly trim: TrimCapability;
  /** ONCS bit 3: Write Zeroes. */
  readonly writeZeroesSupported: boolean;
  readonly security: SecurityCapability;
}

/**
 * Parses `nvme id-ctrl -o json` (nvme-cli 1.x `"key" : value` and 2.x layouts). OACS bit 0 = Security
 * Send/Receive, bit 3 = Namespace Management; ONCS bit 2 = Dataset Management (deallocate/TRIM), bit 3 =
 * Write Zeroes (NVMe Base Spec; ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c), sedutil-cli --scan; TCG Storage Opal SSC Level 0 Discovery; NVMe OACS bit 0). Throws TOOL_OUTPUT_UNRECOGNIZED without oacs/oncs.
 */
export function parseNvmeIdCtrl(text: string): NvmeIdCtrl {
  const document = parseJsonObject(TOOL, text);
  const oacs = numberAt(document, 'oacs');
  const oncs = numberAt(document, 'oncs');
  if (oacs === null || oncs === null || !Number.isInteger(oacs) || !Number.isInteger(oncs)) {
    throw unrecognized(TOOL, 'not an `nvme id-ctrl -o json` document (oacs / oncs missing)');
  }
  const total = counterAt(document, 'tnvmcap');
  const unallocated = counterAt(document, 'unvmcap');
  const bit = (value: number, index: number): boolean => (value & (1 << index)) !== 0;
  return {
    model: stringAt(document, 'mn')?.trim() ?? null,
    totalCapacityBytes: total?.value ?? null,
    totalCapacityBytesExact: total?.exact.toString() ?? null,
    unallocatedCapacityBytes: unallocated?.value ?? null,
    unallocatedCapacityBytesExact: unallocated?.exact.toString() ?? null,
    namespaceCount: numberAt(document, 'nn'),
    oacs,
    oncs,
    trim: {
      supported: bit(oncs, 2),
      deterministic: null,
      zeroed: null,
      mechanism: 'nvme-deallocate',
      origin: 'nvme id-ctrl',
      field: 'oncs',
    },
    writeZeroesSupported: bit(oncs, 3),
    security: {
      nvmeSecuritySendReceive: bit(oacs, 0),
      nvmeNamespaceManagement: bit(oacs, 3),
      ataTrustedComputing: null,
      ataSecurity: null,
      origin: 'nvme id-ctrl',
    },
  };
}
