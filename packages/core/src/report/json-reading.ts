/** Defensive reading of JSON whose shape may differ from what the view expects (old or newer envelopes). */

/** A JSON object read from an envelope whose shape is not trusted. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string, else null. */
export function asString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A finite number, else null. */
export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The array, or an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The first present key of an object (the contract is still growing; tolerate its known spellings). */
export function pick(object: Json, keys: readonly string[]): unknown {
  for (const key of keys) {
    if (object[key] !== undefined && object[key] !== null) {
      return object[key];
    }
  }
  return undefined;
}

/** "smartctl: field" from a FactSource ({origin, field}), a plain string, or null. */
export function describeSource(value: unknown): string | null {
  if (typeof value === 'string') {
    return value;
  }
  if (isObject(value)) {
    const origin = asString(value.origin) ?? asString(value.tool);
    const field = asString(value.field);
    if (origin !== null) {
      return field === null ? origin : `${origin}: ${field}`;
    }
  }
  return null;
}
