// Module resolution hooks for hold.mjs (node:module register): never resolves the CLI's oclif entry (oclif is
// bundled into bundle/oclif-entry.js, so that import is where bin/run.js starts loading the commands).
import { writeFileSync } from 'node:fs';

let marker;

export function initialize(data) {
  marker = data.marker;
}

export function resolve(specifier, context, next) {
  if (specifier === '@oclif/core' || specifier.endsWith('/oclif-entry.js')) {
    writeFileSync(marker, 'held');
    return new Promise(() => undefined);
  }
  return next(specifier, context);
}
