import { isJsonObject, parseJsonObject, unrecognized } from '../json-reader.js';

/** A partition as `sfdisk --json` lists it, in sectors of the table's sector size. */
export interface SfdiskPartition {
  readonly node: string;
  readonly startSectors: number;
  readonly sizeSectors: number;
  readonly type: string | null;
  readonly uuid: string | null;
  readonly name: string | null;
}

/** The partition table read from the disk itself (no udev needed). */
export interface SfdiskTable {
  readonly label: 'gpt' | 'dos' | 'other';
  readonly sectorBytes: number;
  /** GPT: first and last usable LBA; everything outside belongs to the table's headers. Null for dos. */
  readonly firstUsableSector: number | null;
  readonly lastUsableSector: number | null;
  readonly partitions: readonly SfdiskPartition[];
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Parses `sfdisk --json DEVICE`. Throws TOOL_OUTPUT_UNRECOGNIZED on anything else. */
export function parseSfdiskJson(text: string): SfdiskTable {
  const document = parseJsonObject('sfdisk', text);
  const table = isJsonObject(document) ? document.partitiontable : undefined;
  if (!isJsonObject(table)) {
    throw unrecognized('sfdisk', 'no "partitiontable" object');
  }
  const label = table.label === 'gpt' || table.label === 'dos' ? table.label : 'other';
  // sfdisk before 2.38 printed no sectorsize; the unit was always 512-byte sectors then.
  const sectorBytes = integer(table.sectorsize) ?? 512;
  const partitions = (Array.isArray(table.partitions) ? table.partitions : []).map(
    (entry): SfdiskPartition => {
      if (!isJsonObject(entry) || typeof entry.node !== 'string') {
        throw unrecognized('sfdisk', 'a partition has no node');
      }
      const start = integer(entry.start);
      const size = integer(entry.size);
      if (start === null || size === null) {
        throw unrecognized('sfdisk', `partition ${entry.node} has no start or size`);
      }
      return {
        node: entry.node,
        startSectors: start,
        sizeSectors: size,
        type: typeof entry.type === 'string' ? entry.type : null,
        uuid: typeof entry.uuid === 'string' ? entry.uuid : null,
        name: typeof entry.name === 'string' ? entry.name : null,
      };
    },
  );
  return {
    label,
    sectorBytes,
    firstUsableSector: integer(table.firstlba),
    lastUsableSector: integer(table.lastlba),
    partitions,
  };
}
