// Module resolution hooks for hold.mjs (node:module register): never resolves '@oclif/core'.
import { writeFileSync } from 'node:fs';

let marker;

export function initialize(data) {
  marker = data.marker;
}

export function resolve(specifier, context, next) {
  if (specifier === '@oclif/core') {
    writeFileSync(marker, 'held');
    return new Promise(() => undefined);
  }
  return next(specifier, context);
}
