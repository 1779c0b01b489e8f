import {
  arrayAt,
  counterAt,
  isJsonObject,
  numberAt,
  parseJsonObject,
  stringAt,
  unrecognized,
  type JsonObject,
} from '../json-reader.js';

const TOOL = 'nvme';

/** One namespace in `nvme list -o json`. */
export interface NvmeListEntry {
  readonly namespacePath: string;
  readonly controller: string | null;
  readonly model: string | null;
  readonly sizeBytes: number | null;
  readonly usedBytes: number | null;
  readonly sectorBytes: number | null;
}

function entryOf(namespace: JsonObject, controller: JsonObject | null): NvmeListEntry | null {
  const name = stringAt(namespace, 'NameSpace') ?? stringAt(namespace, 'DevicePath');
  if (name === null) {
    return null;
  }
  return {
    namespacePath: name.startsWith('/dev/') ? name : `/dev/${name}`,
    controller: stringAt(controller, 'Controller'),
    model: (stringAt(namespace, 'ModelNumber') ?? stringAt(controller, 'ModelNumber'))?.trim() ?? null,
    sizeBytes: counterAt(namespace, 'PhysicalSize')?.value ?? null,
    usedBytes: counterAt(namespace, 'UsedBytes')?.value ?? null,
    sectorBytes: numberAt(namespace, 'SectorSize'),
  };
}

/**
 * Parses `nvme list -o json` in both layouts: nvme-cli 1.x/2.0 flat `Devices[]` and 2.11's nested
 * `Devices[].Subsystems[].Controllers[].Namespaces[]`. Throws TOOL_OUTPUT_UNRECOGNIZED without `Devices`.
 */
export function parseNvmeList(text: string): NvmeListEntry[] {
  const document = parseJsonObject(TOOL, text);
  if (!Array.isArray(document.Devices)) {
    throw unrecognized(TOOL, 'not an `nvme list -o json` document (Devices missing)');
  }
  const entries: NvmeListEntry[] = [];
  for (const device of arrayAt(document, 'Devices').filter(isJsonObject)) {
    const subsystems = arrayAt(device, 'Subsystems').filter(isJsonObject);
    if (subsystems.length === 0) {
      const flat = entryOf(device, null);
      if (flat !== null) {
        entries.push(flat);
      }
      continue;
    }
    for (const subsystem of subsystems) {
      for (const controller of arrayAt(subsystem, 'Controllers').filter(isJsonObject)) {
        for (const namespace of arrayAt(controller, 'Namespaces').filter(isJsonObject)) {
          const entry = entryOf(namespace, controller);
          if (entry !== null) {
            entries.push(entry);
          }
        }
      }
      for (const namespace of arrayAt(subsystem, 'Namespaces').filter(isJsonObject)) {
        const entry = entryOf(namespace, null);
        if (entry !== null) {
          entries.push(entry);
        }
      }
    }
  }
  return entries;
}
