import { bridgeDocument, EncplanError } from '@encplan/core';
import type { BridgeEnvelope, BridgeMethod, EncplanBridge } from '../../../shared/bridge.js';

/** The header `encplan ui` expects the per-run token in (see packages/desktop/src/server/ui-server.ts). */
const TOKEN_HEADER = 'X-Encplan-Token';

function transportError<Result>(error: EncplanError): BridgeEnvelope<Result> {
  return bridgeDocument.error(error);
}

/**
 * The bridge over `encplan ui`'s HTTP API: POST /api/<method> with `{ input }`, the token in a header.
 * Network failures become error envelopes too, so the wizard handles one kind of failure.
 */
export function createHttpBridge(
  token: string,
  fetchFunction: typeof fetch = fetch.bind(window),
): EncplanBridge {
  const call = async <Result>(method: BridgeMethod, input?: unknown): Promise<BridgeEnvelope<Result>> => {
    try {
      const response = await fetchFunction(`./api/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify({ input }),
        credentials: 'omit',
        cache: 'no-store',
      });
      if (response.status === 401 || response.status === 403) {
        // A stale tab of an earlier run, or an address without its token: say what to open instead.
        return transportError(
          new EncplanError(
            'PERMISSION_DENIED',
            `encplan ui refused this page (HTTP ${String(response.status)}): its token is missing or belongs to an earlier run.`,
            {
              hint: 'Open the address the running `encplan ui` printed (it ends in ?token=…); each run has a new one.',
            },
          ),
        );
      }
      return (await response.json()) as BridgeEnvelope<Result>;
    } catch (error) {
      return transportError(
        new EncplanError(
          'INTERNAL_ERROR',
          `Lost the connection to encplan ui (${error instanceof Error ? error.message : String(error)}).`,
          {
            hint: 'Check that `encplan ui` is still running and the SSH tunnel is open, then reload.',
          },
        ),
      );
    }
  };
  const bridge: EncplanBridge = {
    listDevices: () => call('listDevices'),
    capabilities: () => call('capabilities'),
    benchmarkFootprint: (request) => call('benchmarkFootprint', request),
    startAssessment: (request) => call('startAssessment', request),
    jobStatus: (jobId) => call('jobStatus', jobId),
    cancel: (jobId) => call('cancel', jobId),
  };
  return bridge;
}

/**
 * Reads the token from `?token=` once, keeps it in sessionStorage (so a reload works) and removes it from
 * the address bar, so it does not stay in history or screenshots.
 */
export function takeTokenFromLocation(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null) {
    sessionStorage.setItem('encplan-token', fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem('encplan-token');
}
