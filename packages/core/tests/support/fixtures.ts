import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's fixtures/ directory. */
export const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

/** Reads a fixture file as text, byte for byte (no newline conversion). */
export function fixture(relative: string): string {
  return readFileSync(path.join(FIXTURES, relative), 'utf8');
}

/** Reads a fixture case's command.json. */
export function fixtureCommand(caseDirectory: string): { tool: string; argv: string[]; exitCode: number } {
  return JSON.parse(fixture(`${caseDirectory}/command.json`)) as {
    tool: string;
    argv: string[];
    exitCode: number;
  };
}

/**
 * The system disk of the Debian 12 VM several fixtures were captured on, as the disk list shows it: the lsblk
 * capture `lsblk/all-devices-virtio-zram-loops-debian12` and the saved assessment
 * `assessments/virtio-system-disk-whole-ext4-debian12.json` both describe it (256 GiB, virtio, no model).
 */
export const VIRTIO_SYSTEM_DISK = {
  path: '/dev/vda',
  model: null,
  sizeBytes: 274_877_906_944,
  transport: 'virtio',
  rotational: true,
  isSystemDisk: true,
  healthVerdict: 'unknown',
} as const;
