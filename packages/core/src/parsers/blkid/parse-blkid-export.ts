/** What `blkid -p -o export` found on a device: a filesystem, a partition table, or nothing. */
export interface BlkidProbe {
  readonly type: string | null;
  readonly version: string | null;
  readonly label: string | null;
  readonly uuid: string | null;
  /** "filesystem", "crypto", "raid", "other" (blkid USAGE). */
  readonly usage: string | null;
  readonly partitionTableType: string | null;
  readonly partitionTableUuid: string | null;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Parses `blkid -p -o export` (KEY=value lines). blkid exits 2 when it finds nothing; callers pass the
 * empty output and get a probe with every field null.
 */
export function parseBlkidExport(text: string): BlkidProbe {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const index = line.indexOf('=');
    if (index > 0) {
      const key = line.slice(0, index).trim();
      // blkid escapes unsafe characters in values with backslashes in export mode.
      values[key] = line.slice(index + 1).replace(/\\(.)/g, '$1');
    }
  }
  const get = (key: string): string | null => values[key] ?? null;
  return {
    type: get('TYPE'),
    version: get('VERSION'),
    label: get('LABEL'),
    uuid: get('UUID'),
    usage: get('USAGE'),
    partitionTableType: get('PTTYPE'),
    partitionTableUuid: get('PTUUID'),
    values,
  };
}

/**
 * Parses `blkid -p -o export DEV…` for several devices: one block per device that has a signature, blocks
 * separated by an empty line, each with DEVNAME. A device with nothing found prints no block (blkid(8)).
 */
export function parseBlkidExportDevices(text: string): Map<string, BlkidProbe> {
  const probes = new Map<string, BlkidProbe>();
  for (const block of text.split(/\r?\n\s*\r?\n/)) {
    const probe = parseBlkidExport(block);
    const device = probe.values.DEVNAME;
    if (device !== undefined) {
      probes.set(device, probe);
    }
  }
  return probes;
}
