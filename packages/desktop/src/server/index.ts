/** @encplan/desktop/server: what `encplan ui` needs to serve the wizard in a browser. */
export * from './ui-server.js';
export * from '../backend/bridge-handlers.js';
export * from '../backend/wizard-services.js';
export { channels, type EncplanBridge, type BridgeEnvelope, type BridgeMethod } from '../shared/bridge.js';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built renderer shipped with this package (`npm run build -w packages/desktop`). */
export const RENDERER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../out/renderer');
