import { assertInputSize } from '../json-reader.js';

/** One line of /etc/crypttab (crypttab(5)): name, device, key file, options. */
export interface CrypttabEntry {
  readonly name: string;
  readonly device: string;
  readonly keyFile: string | null;
  readonly options: readonly string[];
  /** `discard` (also systemd's `allow-discards` spelling) is set. */
  readonly discard: boolean;
}

/**
 * Parses /etc/crypttab. Comments and blank lines are skipped; malformed lines (fewer than two fields) are
 * skipped too, because systemd-cryptsetup-generator ignores them the same way.
 */
export function parseCrypttab(text: string): CrypttabEntry[] {
  assertInputSize('/etc/crypttab', text);
  const entries: CrypttabEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const [name, device, keyFile, options] = line.split(/\s+/);
    if (name === undefined || name === '' || device === undefined) {
      continue;
    }
    const list = options === undefined ? [] : options.split(',').filter((option) => option !== '');
    entries.push({
      name,
      device,
      keyFile: keyFile === undefined || keyFile === 'none' || keyFile === '-' ? null : keyFile,
      options: list,
      discard: list.includes('discard') || list.includes('allow-discards'),
    });
  }
  return entries;
}
