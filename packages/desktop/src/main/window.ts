import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';

/**
 * The security settings of the wizard's window: the page runs sandboxed and isolated from the preload,
 * with no Node, no webviews and no way to open or navigate to other pages (Electron security checklist).
 */
function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 820,
    minWidth: 720,
    minHeight: 560,
    show: false,
    title: 'encplan',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** The constructor this module needs; the real BrowserWindow in the app, a recording fake in tests. */
export type BrowserWindowConstructor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

/**
 * Creates the wizard window and locks it to its own page: new windows are denied and navigation away
 * from `rendererUrl` is prevented.
 */
export async function createMainWindow(
  Window: BrowserWindowConstructor,
  preloadPath: string,
  rendererUrl: string,
): Promise<BrowserWindow> {
  const window = new Window(windowOptions(preloadPath));
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (url !== rendererUrl) {
      event.preventDefault();
    }
  });
  window.once('ready-to-show', () => {
    window.show();
  });
  await window.loadURL(rendererUrl);
  return window;
}
