import { z } from 'zod';
import { EncplanError } from '../../errors.js';

/** One attached loop device and the file behind it. */
export interface LoopDevice {
  readonly device: string;
  /** The backing file, without the " (deleted)" suffix losetup adds when the file was removed. */
  readonly backingFile: string | null;
  readonly backingFileDeleted: boolean;
}

const listSchema = z.object({
  loopdevices: z.array(z.looseObject({ name: z.string(), 'back-file': z.string().nullable().optional() })),
});

/** Parses `losetup --list --json --output NAME,BACK-FILE`. Empty output means no loop device is attached. */
export function parseLosetupList(text: string): LoopDevice[] {
  if (text.trim() === '') {
    return [];
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', 'losetup --json output is not JSON.', {
      cause: error,
      details: { tool: 'losetup' },
    });
  }
  const parsed = listSchema.safeParse(raw);
  if (!parsed.success) {
    throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', 'losetup --json output lacks loopdevices[].name.', {
      details: { tool: 'losetup' },
    });
  }
  return parsed.data.loopdevices.map((entry) => {
    const back = entry['back-file'] ?? null;
    const deleted = back?.endsWith(' (deleted)') ?? false;
    return {
      device: entry.name,
      backingFile: deleted && back !== null ? back.slice(0, -' (deleted)'.length) : back,
      backingFileDeleted: deleted,
    };
  });
}
