/**
 * A small hand-written stand-in for the parts of `electron` the desktop uses: it records what main and
 * preload do (handlers, window options, exposed APIs, invokes) so tests can assert on it.
 */
type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const recorded = {
  handlers: new Map<string, Handler>(),
  windows: [] as FakeBrowserWindow[],
  exposed: [] as { key: string; api: Record<string, (...args: unknown[]) => unknown> }[],
  invokes: [] as { channel: string; args: unknown[] }[],
  reset(): void {
    this.handlers.clear();
    this.windows.length = 0;
    this.exposed.length = 0;
    this.invokes.length = 0;
  },
};

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    if (recorded.handlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    recorded.handlers.set(channel, handler);
  },
};

class FakeWebContents {
  readonly listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  windowOpenHandler: (() => { action: string }) | null = null;
  setWindowOpenHandler(handler: () => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  on(event: string, listener: (...args: unknown[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
}

let nextWindowId = 1;

export class FakeBrowserWindow {
  readonly id = nextWindowId++;
  readonly webContents = new FakeWebContents();
  loadedUrl: string | null = null;
  shown = false;
  constructor(readonly options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
    recorded.windows.push(this);
  }
  static fromWebContents(contents: unknown): FakeBrowserWindow | null {
    return recorded.windows.find((window) => window.webContents === contents) ?? null;
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show(): void {
    this.shown = true;
  }
  once(event: string, listener: () => void): this {
    if (event === 'ready-to-show') {
      listener();
    }
    return this;
  }
}
export { FakeBrowserWindow as BrowserWindow };

export const contextBridge = {
  exposeInMainWorld(key: string, api: Record<string, (...args: unknown[]) => unknown>): void {
    recorded.exposed.push({ key, api });
  },
};

export const ipcRenderer = {
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    recorded.invokes.push({ channel, args });
    return Promise.resolve({ channel });
  },
};
