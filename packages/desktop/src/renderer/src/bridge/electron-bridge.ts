import type { EncplanBridge } from '../../../shared/bridge.js';

/** The bridge the preload exposed, when this page runs inside the Electron window. */
export function findElectronBridge(): EncplanBridge | null {
  return window.encplan ?? null;
}
