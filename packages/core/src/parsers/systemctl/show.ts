import { assertInputSize } from '../json-reader.js';

/** Parses `systemctl show UNIT -p A -p B` output ("Key=value" lines) into a map. Unknown lines are ignored. */
export function parseSystemctlShow(text: string): Record<string, string> {
  assertInputSize('systemctl', text);
  const properties: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined && !Object.hasOwn(properties, match[1])) {
      Object.defineProperty(properties, match[1], { value: match[2], enumerable: true, writable: false });
    }
  }
  return properties;
}

/**
 * Turns a systemd timestamp printed with `--timestamp=utc` ("Mon 2026-11-16 00:00:01 UTC") into ISO-8601,
 * or null for "n/a", an empty value or any other format.
 */
export function systemdTimestampToIso(value: string | undefined): string | null {
  const match = /^\w{3} (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/.exec(value ?? '');
  return match === null ? null : `${match[1] ?? ''}T${match[2] ?? ''}Z`;
}
