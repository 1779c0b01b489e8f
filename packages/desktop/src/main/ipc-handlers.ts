import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { bridgeDocument, EncplanError } from '@encplan/core';
import type { BridgeHandlers } from '../backend/bridge-handlers.js';
import { channels, type BridgeMethod } from '../shared/bridge.js';

/** Decides whether an IPC message comes from the wizard's own window and page. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * Accepts a message only from `expectedWindowId`'s web contents (Fiddle's fromWebContents check) and only
 * from its top frame showing `rendererUrl`, so an injected frame or another window cannot call the bridge.
 */
export function createSenderCheck(
  fromWebContents: (contents: IpcMainInvokeEvent['sender']) => { readonly id: number } | null,
  expectedWindowId: () => number | null,
  rendererUrl: string,
): SenderCheck {
  return (event) => {
    const window = fromWebContents(event.sender);
    const frameUrl = event.senderFrame?.url ?? '';
    return (
      window !== null &&
      window.id === expectedWindowId() &&
      event.senderFrame?.parent === null &&
      frameUrl.split(/[?#]/)[0] === rendererUrl
    );
  };
}

/**
 * Registers one `ipcMain.handle` per bridge channel. Unknown senders get a PERMISSION_DENIED envelope and
 * the handler is not called; handlers themselves validate input and never throw (bridge-handlers.ts).
 */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: BridgeHandlers,
  isTrustedSender: SenderCheck,
): void {
  for (const method of Object.keys(channels) as BridgeMethod[]) {
    ipcMain.handle(channels[method], async (event, input: unknown) => {
      if (!isTrustedSender(event)) {
        return bridgeDocument.error(
          new EncplanError('PERMISSION_DENIED', 'IPC from an unknown sender was refused.'),
        );
      }
      return handlers[method](input);
    });
  }
}
