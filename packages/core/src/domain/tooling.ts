import { z } from 'zod';
import { TOOL_NAMES } from '../ports.js';

/** A tool encplan ran (or looked for), with the version it reported. */
export const toolRecordSchema = z.object({
  tool: z.enum(TOOL_NAMES),
  path: z.string().nullable(),
  version: z.string().nullable(),
});
export type ToolRecord = z.infer<typeof toolRecordSchema>;

/** How to ask each tool its version; tools missing here are reported without one. */
export const VERSION_ARGUMENTS: Partial<Record<(typeof TOOL_NAMES)[number], readonly string[]>> = {
  lsblk: ['--version'],
  blkid: ['--version'],
  findmnt: ['--version'],
  sfdisk: ['--version'],
  smartctl: ['--version'],
  nvme: ['version'],
  hdparm: ['-V'],
  cryptsetup: ['--version'],
  dmsetup: ['--version'],
  fio: ['--version'],
  openssl: ['version'],
  veracrypt: ['--text', '--version'],
  fscrypt: ['--version'],
  losetup: ['--version'],
  sgdisk: ['--version'],
  systemctl: ['--version'],
  'mkfs.ext4': ['-V'],
  diskspd: ['-?'],
  // sedutil Common/DtaOptions.cpp usage(): "sedutil-cli --version".
  'sedutil-cli': ['--version'],
};

/** The version number in a tool's version banner ("smartctl 7.3 2022-02-28 r5338 …" → "7.3"). */
export function parseVersionBanner(text: string): string | null {
  const line = text.split('\n').find((candidate) => /\d+\.\d+/.test(candidate));
  const match = line === undefined ? null : /(\d+\.\d+(?:\.\d+)?(?:[-.~+][0-9A-Za-z.]+)?)/.exec(line);
  return match?.[1] ?? null;
}
