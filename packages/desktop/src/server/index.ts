/** @encplan/desktop/server: what `encplan ui` needs to serve the wizard in a browser. */
export * from './ui-server.js';
export * from '../backend/bridge-handlers.js';
export * from '../backend/wizard-services.js';
export { channels, type EncplanBridge, type BridgeEnvelope, type BridgeMethod } from '../shared/bridge.js';

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * The built renderer: packages/desktop/out/renderer in the workspace (`npm run build -w packages/desktop`), or
 * `renderer/` beside bundle/ in the packed release (scripts/pack-release.mjs), whether this module was bundled
 * into bundle/ or into a chunk under bundle/chunks/; from the workspace's CLI bundle (packages/cli/bundle/chunks,
 * scripts/bundle-cli.mjs), the desktop package's out/renderer.
 */
export const RENDERER_DIR =
  [
    path.join(here, '../../out/renderer'),
    path.join(here, '../../../desktop/out/renderer'),
    path.join(here, '../renderer'),
    path.join(here, '../../renderer'),
  ].find((candidate) => existsSync(path.join(candidate, 'index.html'))) ??
  path.join(here, '../../out/renderer');
