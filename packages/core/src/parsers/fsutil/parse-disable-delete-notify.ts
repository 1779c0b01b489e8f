import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

/** `fsutil behavior query DisableDeleteNotify`: whether Windows sends TRIM, per filesystem. */
export interface DisableDeleteNotify {
  /** True: TRIM/unmap is sent (DisableDeleteNotify = 0); false: disabled (1); null: not set / not printed. */
  readonly ntfsTrimEnabled: boolean | null;
  readonly refsTrimEnabled: boolean | null;
}

/**
 * Parses both forms Microsoft's fsutil prints: `NTFS DisableDeleteNotify = 0  (Allows TRIM operations…)`
 * and the older bare `NTFS DisableDeleteNotify = 1`, plus `ReFS DisableDeleteNotify is not currently set`
 * (Microsoft Learn, "fsutil behavior", disabledeletenotify: 0 allows TRIM, 1 disables it).
 */
export function parseDisableDeleteNotify(text: string): DisableDeleteNotify {
  const result: { ntfsTrimEnabled: boolean | null; refsTrimEnabled: boolean | null } = {
    ntfsTrimEnabled: null,
    refsTrimEnabled: null,
  };
  let seen = false;
  for (const line of splitOutputLines('fsutil', text.replace(/^\uFEFF/, ''))) {
    if (line.trim() === '') {
      continue;
    }
    const set = /^\s*(NTFS|ReFS)\s+DisableDeleteNotify\s*=\s*([01])\b/.exec(line);
    const unset = /^\s*(NTFS|ReFS)\s+DisableDeleteNotify\s+is not currently set/.exec(line);
    const match = set ?? unset;
    if (match === null) {
      throw unrecognizedOutput('fsutil', 'a line is not a DisableDeleteNotify setting', line);
    }
    seen = true;
    const value = set === null ? null : set[2] === '0';
    if (match[1] === 'NTFS') {
      result.ntfsTrimEnabled = value;
    } else {
      result.refsTrimEnabled = value;
    }
  }
  if (!seen) {
    throw unrecognizedOutput('fsutil', 'no DisableDeleteNotify line');
  }
  return result;
}
