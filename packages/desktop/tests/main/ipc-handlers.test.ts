import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { createBridgeHandlers } from '../../src/backend/bridge-handlers.js';
import { createWizardBackend } from '../../src/backend/wizard-services.js';
import { createSenderCheck, registerIpcHandlers } from '../../src/main/ipc-handlers.js';
import { createMainWindow } from '../../src/main/window.js';
import { channels } from '../../src/shared/bridge.js';

vi.mock('electron', () => import('../mocks/electron-fake.js'));
const electron = await import('electron');
const { recorded, FakeBrowserWindow } = await import('../mocks/electron-fake.js');

const RENDERER_URL = 'file:///opt/encplan/out/renderer/index.html';
const FIXTURE = path.join(REPO_ROOT, 'fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json');

async function setUp() {
  recorded.reset();
  const backend = await createWizardBackend({
    assessmentFiles: [FIXTURE],
    searchPath: '',
    userId: 1000,
    stepDelayMs: 0,
  });
  const window = await createMainWindow(
    electron.BrowserWindow,
    '/opt/encplan/out/preload/index.cjs',
    RENDERER_URL,
  );
  registerIpcHandlers(
    electron.ipcMain,
    createBridgeHandlers(backend.services, backend.jobs),
    createSenderCheck(
      (contents) => electron.BrowserWindow.fromWebContents(contents),
      () => window.id,
      RENDERER_URL,
    ),
  );
  return window as unknown as InstanceType<typeof FakeBrowserWindow>;
}

function invoke(
  channel: string,
  event: unknown,
  input?: unknown,
): Promise<{ status: string; result: unknown; error: { code: string; message: string } | null }> {
  const handler = recorded.handlers.get(channel);
  if (handler === undefined) {
    throw new Error(`no handler for ${channel}`);
  }
  return handler(event, input) as Promise<{
    status: string;
    result: unknown;
    error: { code: string; message: string } | null;
  }>;
}

describe('main process IPC', () => {
  let window: InstanceType<typeof FakeBrowserWindow>;
  let trusted: unknown;
  beforeEach(async () => {
    window = await setUp();
    trusted = { sender: window.webContents, senderFrame: { url: RENDERER_URL, parent: null } };
  });

  it('registers exactly one handler per bridge channel', () => {
    expect([...recorded.handlers.keys()].sort()).toEqual(Object.values(channels).sort());
  });

  it('answers the wizard window with an envelope listing the fixture drive', async () => {
    const envelope = await invoke(channels.listDevices, trusted);
    expect(envelope.status).toBe('ok');
    expect(envelope.result).toEqual({
      devices: [
        expect.objectContaining({
          path: '/dev/loop2',
          transport: 'loop',
          isSystemDisk: false,
          healthVerdict: 'unknown',
        }),
      ],
    });
  });

  it('runs an assessment job to its envelope through start and status', async () => {
    const started = await invoke(channels.startAssessment, trusted, {
      device: '/dev/loop2',
      benchmark: 'none',
      backends: [],
    });
    const { jobId } = started.result as { jobId: string };
    let snapshot: { state: string; envelope: { result: { disk: { path: string } } } } | undefined;
    for (let i = 0; i < 50; i += 1) {
      snapshot = (await invoke(channels.jobStatus, trusted, jobId)).result as typeof snapshot;
      if (snapshot?.state !== 'running') {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(snapshot?.state).toBe('done');
    expect(snapshot?.envelope.result.disk.path).toBe('/dev/loop2');
  });

  it('refuses a sender that is not the wizard window, without calling the handler', async () => {
    const stranger = new FakeBrowserWindow({});
    const envelope = await invoke(
      channels.startAssessment,
      { sender: stranger.webContents, senderFrame: { url: RENDERER_URL, parent: null } },
      { device: '/dev/loop2', benchmark: 'none', backends: [] },
    );
    expect(envelope).toMatchObject({ status: 'error', result: null, error: { code: 'PERMISSION_DENIED' } });
  });

  it('refuses a sub-frame or another page inside the wizard window', async () => {
    const fromFrame = await invoke(channels.listDevices, {
      sender: window.webContents,
      senderFrame: { url: RENDERER_URL, parent: {} },
    });
    const fromOtherPage = await invoke(channels.listDevices, {
      sender: window.webContents,
      senderFrame: { url: 'https://evil.example/', parent: null },
    });
    expect(fromFrame.error?.code).toBe('PERMISSION_DENIED');
    expect(fromOtherPage.error?.code).toBe('PERMISSION_DENIED');
  });

  it.each([
    ['a relative device path', { device: 'sda', benchmark: 'none', backends: [] }],
    ['a path outside /dev', { device: '/etc/shadow', benchmark: 'none', backends: [] }],
    ['a traversal', { device: '/dev/../etc/shadow', benchmark: 'none', backends: [] }],
    ['an unknown benchmark mode', { device: '/dev/sda', benchmark: 'destroy', backends: [] }],
    ['an extra field', { device: '/dev/sda', benchmark: 'none', backends: [], allowDestructive: true }],
    ['no object at all', 'rm -rf /'],
  ])('rejects %s with INVALID_ARGUMENT instead of throwing', async (_name, input) => {
    const envelope = await invoke(channels.startAssessment, trusted, input);
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
  });

  it('rejects a malformed job id', async () => {
    const envelope = await invoke(channels.cancel, trusted, '../../etc');
    expect(envelope.error?.code).toBe('INVALID_ARGUMENT');
  });
});

describe('the wizard window', () => {
  // The Electron security checklist (electronjs.org/docs/latest/tutorial/security), by its item numbers.
  it.each([
    ['2', 'nodeIntegration', false],
    ['2', 'nodeIntegrationInWorker', false],
    ['2', 'nodeIntegrationInSubFrames', false],
    ['3', 'contextIsolation', true],
    ['4', 'sandbox', true],
    ['6', 'webSecurity', true],
    ['8', 'allowRunningInsecureContent', false],
    ['12', 'webviewTag', false],
  ] as const)(
    'keeps the renderer locked down (checklist item %s): %s is %s',
    async (_item, setting, value) => {
      const window = await setUp();
      expect(window.options.webPreferences?.[setting]).toBe(value);
    },
  );

  it('loads its own preload and renderer page', async () => {
    const window = await setUp();
    expect(window.options.webPreferences?.preload).toBe('/opt/encplan/out/preload/index.cjs');
    expect(window.loadedUrl).toBe(RENDERER_URL);
  });

  it('denies new windows and prevents navigation to other pages', async () => {
    const window = await setUp();
    expect(window.webContents.windowOpenHandler?.()).toEqual({ action: 'deny' });
    const [willNavigate] = window.webContents.listeners.get('will-navigate') ?? [];
    const away = { preventDefault: vi.fn() };
    willNavigate?.(away, 'https://evil.example/');
    expect(away.preventDefault).toHaveBeenCalledOnce();
    const same = { preventDefault: vi.fn() };
    willNavigate?.(same, RENDERER_URL);
    expect(same.preventDefault).not.toHaveBeenCalled();
  });
});
