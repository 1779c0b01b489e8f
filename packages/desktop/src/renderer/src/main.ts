import type { EncplanBridge } from '../../shared/bridge.js';
import { findElectronBridge } from './bridge/electron-bridge.js';
import { createHttpBridge, takeTokenFromLocation } from './bridge/http-bridge.js';
import { startWizard } from './app.js';
import { h } from './element-builder.js';

/** Picks the bridge at start-up: the fake one in VITE_BRIDGE=fake builds, Electron's, or `encplan ui`'s. */
async function chooseBridge(): Promise<EncplanBridge | null> {
  if (import.meta.env.VITE_BRIDGE === 'fake') {
    const { createFakeBridge } = await import('./bridge/fake-bridge.js');
    return createFakeBridge();
  }
  const electron = findElectronBridge();
  if (electron !== null) {
    return electron;
  }
  const token = takeTokenFromLocation();
  return token === null ? null : createHttpBridge(token);
}

const root = document.querySelector<HTMLElement>('#app');
if (root !== null) {
  void chooseBridge().then((bridge) => {
    if (bridge === null) {
      root.replaceChildren(
        h(
          'main',
          { id: 'content' },
          h('h1', {}, 'No connection'),
          h('p', {}, 'Open the address `encplan ui` printed, including its ?token=… part.'),
        ),
      );
      return;
    }
    startWizard(root, bridge);
  });
}
