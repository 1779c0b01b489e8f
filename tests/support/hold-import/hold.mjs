// Test preload (node --import): holds the import of oclif (bundle/oclif-entry.js) forever and writes $HOLD_MARKER once bin/run.js
// asks for it, so a test can signal encplan at a known point: after its first lines, before any command.
// The interval keeps the event loop alive meanwhile, as loading the commands would.
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url), { data: { marker: process.env.HOLD_MARKER } });
setInterval(() => undefined, 1000);
