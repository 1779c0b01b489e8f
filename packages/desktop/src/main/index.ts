import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, session } from 'electron';
import { createBridgeHandlers } from '../backend/bridge-handlers.js';
import { createWizardBackend } from '../backend/wizard-services.js';
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.js';
import { createMainWindow } from './window.js';
import { createSenderCheck, registerIpcHandlers } from './ipc-handlers.js';

/** Composition root of the desktop app: back end, IPC, CSP header and the one window. */
const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../../out/preload/index.cjs');
const rendererUrl = pathToFileURL(path.join(here, '../../out/renderer/index.html')).href;

/** `--assessment FILE` arguments (saved `encplan assess --json` outputs) until live assess is wired. */
function assessmentFiles(argv: readonly string[]): string[] {
  return argv.flatMap((argument, index) =>
    argument === '--assessment' && argv[index + 1] !== undefined ? [argv[index + 1] ?? ''] : [],
  );
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  const backend = await createWizardBackend({
    assessmentFiles: assessmentFiles(process.argv),
    searchPath: process.env.PATH ?? '',
    userId: typeof process.getuid === 'function' ? process.getuid() : null,
  });
  let windowId: number | null = null;
  registerIpcHandlers(
    ipcMain,
    createBridgeHandlers(backend.services, backend.jobs),
    createSenderCheck(
      (contents) => BrowserWindow.fromWebContents(contents),
      () => windowId,
      rendererUrl,
    ),
  );
  const window = await createMainWindow(BrowserWindow, preloadPath, rendererUrl);
  windowId = window.id;
  app.on('window-all-closed', () => {
    void backend.jobs.cancelAll().finally(() => {
      app.quit();
    });
  });
}

start().catch((error: unknown) => {
  process.stderr.write(
    `encplan desktop failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  app.exit(1);
});
