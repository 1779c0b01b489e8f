/**
 * Control characters in strings from tools (a carriage return in a device model from lsblk, an escape
 * sequence in a filesystem label, a bidirectional override in a partition name) are shown escaped in every
 * view, never acted on by the terminal, the HTML page or the script reader (issue 25 item 8). The views take
 * tool data through {@link printableData} where it enters the view model; the JSON output keeps it raw.
 *
 * Escaped: C0 controls and DEL (U+0000–U+001F, U+007F), C1 controls (U+0080–U+009F), the Unicode general
 * category Cc, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * reorder what a reader sees (Unicode UAX #9; CVE-2021-42574 "Trojan Source"). The CLI's terminal sink
 * (packages/cli terminal-sink.ts) escapes the same way at the last moment, for every byte it prints. Pure.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be found
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * One control character as its JSON escape `\uXXXX`: inert and visible on a terminal, in HTML and in a script
 * comment, and the same string once a `--json` reader parses it. The CLI's terminal sink writes the same form.
 */
export function escapedControl(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// eslint-disable-next-line no-control-regex -- the same class, without the global flag: a test keeps no state
const HAS_UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** `text` with each control character written as {@link escapedControl}. */
export function escapeControlCharacters(text: string): string {
  // Most strings hold none: testing first returns them without building a copy.
  return HAS_UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapedControl) : text;
}

/**
 * Keys whose strings encplan wrote itself with line breaks on purpose: the text a planned command reads on
 * stdin (a crypttab line). Their values are built from validated options, never from a tool's output.
 */
const OWN_MULTILINE_KEYS = new Set(['stdinText']);

/**
 * JSON-shaped `value` with every string passed through {@link escapeControlCharacters}. What holds nothing to
 * escape is returned as it is, not copied (an object or array is copied only when one of its strings changed):
 * the fleet report passes every row of 100,000 documents through here, and nearly none holds a control character.
 */
export function printableData<T>(value: T): T {
  return printable(value, null) as T;
}

function printable(value: unknown, key: string | null): unknown {
  if (typeof value === 'string') {
    return key !== null && OWN_MULTILINE_KEYS.has(key) ? value : escapeControlCharacters(value);
  }
  if (Array.isArray(value)) {
    const list = value as readonly unknown[];
    let copy: unknown[] | null = null;
    for (let index = 0; index < list.length; index += 1) {
      const item = list[index];
      const shown = printable(item, null);
      if (shown !== item) {
        copy ??= [...list];
        copy[index] = shown;
      }
    }
    return copy ?? list;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    // A for…in loop, not Object.entries(…): about three times faster.
    let copy: Record<string, unknown> | null = null;
    for (const entryKey in value) {
      if (Object.hasOwn(value, entryKey)) {
        const item = (value as Record<string, unknown>)[entryKey];
        const shown = printable(item, entryKey);
        if (shown !== item) {
          copy ??= { ...value };
          copy[entryKey] = shown;
        }
      }
    }
    return copy ?? value;
  }
  return value;
}
