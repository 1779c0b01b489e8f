import type { TrimCapability } from '../../domain/drive-capabilities.js';
import { arrayAt, counterAt, isJsonObject, numberAt, parseJsonObject, unrecognized } from '../json-reader.js';

const TOOL = 'nvme';

/** What the drive returns when reading deallocated blocks (DLFEAT bits 2:0, NVMe Base Spec). */
export type DeallocatedReadBehaviour = 'not-reported' | 'zeroes' | 'ones' | 'reserved';

/** What `nvme id-ns -o json` says about the namespace's size and deallocation. */
export interface NvmeIdNs {
  readonly sizeBlocks: number;
  readonly capacityBlocks: number | null;
  readonly utilizationBlocks: number | null;
  readonly logicalBlockBytes: number | null;
  readonly sizeBytes: number | null;
  readonly dlfeat: number;
  readonly deallocatedReads: DeallocatedReadBehaviour;
  /** DLFEAT bit 3: Write Zeroes may deallocate. */
  readonly writeZeroesDeallocates: boolean;
  readonly trim: TrimCapability;
}

const DEALLOCATED_READS: readonly DeallocatedReadBehaviour[] = ['not-reported', 'zeroes', 'ones'];

/**
 * Parses `nvme id-ns -o json`: NSZE/NCAP/NUSE, the LBA size from FLBAS and lbafs[].ds (ds = log2 bytes), and
 * DLFEAT (ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c)). Throws TOOL_OUTPUT_UNRECOGNIZED without nsze or dlfeat.
 */
export function parseNvmeIdNs(text: string): NvmeIdNs {
  const document = parseJsonObject(TOOL, text);
  const size = counterAt(document, 'nsze');
  const dlfeat = numberAt(document, 'dlfeat');
  if (size === null || dlfeat === null || !Number.isInteger(dlfeat)) {
    throw unrecognized(TOOL, 'not an `nvme id-ns -o json` document (nsze / dlfeat missing)');
  }
  const flbas = numberAt(document, 'flbas');
  // FLBAS bits 3:0 select the format (bits 6:5 extend it beyond 16 formats, not used by consumer drives).
  const format = flbas === null ? undefined : arrayAt(document, 'lbafs')[flbas & 0x0f];
  const ds = isJsonObject(format) ? numberAt(format, 'ds') : null;
  const logicalBlockBytes = ds !== null && ds >= 9 && ds <= 16 ? 2 ** ds : null;
  const deallocatedReads = DEALLOCATED_READS[dlfeat & 0b111] ?? 'reserved';
  return {
    sizeBlocks: size.value,
    capacityBlocks: counterAt(document, 'ncap')?.value ?? null,
    utilizationBlocks: counterAt(document, 'nuse')?.value ?? null,
    logicalBlockBytes,
    sizeBytes: logicalBlockBytes === null ? null : size.value * logicalBlockBytes,
    dlfeat,
    deallocatedReads,
    writeZeroesDeallocates: (dlfeat & 0b1000) !== 0,
    trim: {
      supported: null,
      deterministic: deallocatedReads === 'zeroes' || deallocatedReads === 'ones',
      zeroed: deallocatedReads === 'zeroes',
      mechanism: 'nvme-deallocate',
      origin: 'nvme id-ns',
      field: 'dlfeat',
    },
  };
}
