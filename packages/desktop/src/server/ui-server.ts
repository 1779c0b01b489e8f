import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bridgeDocument, EncplanError } from '@encplan/core';
import type { BridgeHandlers } from '../backend/bridge-handlers.js';
import { channels, type BridgeMethod } from '../shared/bridge.js';
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.js';

/** The header that carries the per-run token on every API call. */
export const TOKEN_HEADER = 'x-encplan-token';

/** Requests larger than this are refused: the biggest legitimate body is an WizardAssessRequest (< 1 KiB). */
const MAX_BODY_BYTES = 64 * 1024;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** How to start the server. */
export interface UiServerOptions {
  /** The built renderer (packages/desktop/out/renderer). */
  readonly rendererDir: string;
  readonly handlers: BridgeHandlers;
  /** 0 (default) = a random free port. */
  readonly port?: number;
  /** The per-run token; random 256-bit hex when absent. */
  readonly token?: string;
}

/** A running `encplan ui` server. */
export interface UiServer {
  /** The URL to open, token included: http://127.0.0.1:PORT/?token=… */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const METHOD_BY_PATH = new Map<string, BridgeMethod>(
  (Object.keys(channels) as BridgeMethod[]).map((method) => [`/api/${method}`, method]),
);

function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) {
    return false;
  }
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  // The token is in the first URL; never leak it in a Referer.
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** Whether the client asked for JSON rather than a page (an API client, not a browser navigation). */
function wantsJson(request: IncomingMessage): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The token a page request carries: `?token=` first, else the cookie an earlier page load set. */
function pageToken(url: URL, request: IncomingMessage, cookieName: string): string | null {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null) {
    return fromQuery;
  }
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) {
      return value.join('=');
    }
  }
  return null;
}

const REFUSAL_TEXT = {
  401: {
    title: 'This wizard address has no token',
    why: 'encplan ui only answers pages opened with the one-time token it printed, so that no other program or user on this machine can use it.',
  },
  403: {
    title: 'This wizard address has the wrong token',
    why: 'The token in this address is not the one of the running encplan ui: it belongs to an earlier run, or part of it is missing. Every run prints a new address.',
  },
} as const;

/**
 * The page a browser gets for a missing (401) or wrong (403) token: what happened and how to open the wizard,
 * styled with the wizard's own stylesheets (`styleLinks`, from the built index.html), no script.
 */
function refusalPage(status: 401 | 403, port: number, styleLinks: string): string {
  const text = REFUSAL_TEXT[status];
  const address = `http://127.0.0.1:${String(port)}/?token=…`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>encplan: ${text.title}</title>
<link rel="icon" href="data:,">
${styleLinks}
</head>
<body>
<header class="app-header"><span class="brand">encplan</span> <span class="tagline">Check your drive before you encrypt it</span></header>
<main id="content" class="refusal">
<section class="step" aria-labelledby="refusal-title">
<h1 id="refusal-title">${text.title}</h1>
<p class="alert tone-attention"><strong>HTTP ${String(status)}: </strong>${text.why}</p>
<h2>How to open the wizard</h2>
<ol>
<li>Find the terminal where <code>encplan ui</code> runs. When it starts it prints the wizard's address, like <code>${address}</code>.</li>
<li>Open that whole address, including its <code>?token=</code> part (copy the line rather than typing it).</li>
<li>Not running any more? Start it again with <code>encplan ui</code> (add <code>sudo</code> for the checks that need root) and open the new address it prints.</li>
<li>On a server without a screen: run <code>ssh -L ${String(port)}:127.0.0.1:${String(port)} <var>server</var></code> on your own machine, then open the address there.</li>
</ol>
</section>
</main>
</body>
</html>
`;
}

function refuse(
  response: ServerResponse,
  status: number,
  code: 'PERMISSION_DENIED' | 'INVALID_ARGUMENT',
  message: string,
): void {
  const body = bridgeDocument.error(new EncplanError(code, message));
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A request the server answers with a 4xx status rather than handling it. */
class RequestRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const BODY_TOO_LARGE = `Request body larger than ${MAX_BODY_BYTES} bytes.`;

/** Reads the body up to MAX_BODY_BYTES; a declared or actual larger body is refused with 413 (RFC 9110 §15.5.14). */
async function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (!Number.isFinite(declared) || declared > MAX_BODY_BYTES) {
    throw new RequestRefused(413, BODY_TOO_LARGE);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new RequestRefused(413, BODY_TOO_LARGE);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Decodes a URL path; malformed percent-encoding (`%E0%A4%A`, `%zz`) is the client's error: 400. */
function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    throw new RequestRefused(400, 'Malformed percent-encoding in the URL.');
  }
}

/**
 * Starts the wizard's web server for `encplan ui`: the built renderer and an HTTP bridge on 127.0.0.1
 * only. Every request must name this server in Host (no DNS rebinding) and, when it has an Origin, come
 * from this server's origin; every API call must carry the per-run token. Anything else gets 403.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const rendererRoot = await realpath(options.rendererDir);
  let allowedHosts: readonly string[] = [];
  let port = 0;
  // One cookie per server: two `encplan ui` runs on one machine share the host, not the port.
  let cookieName = 'encplan-token';
  // The wizard's stylesheets, so the refusal page looks like the wizard (no inline style: the CSP forbids it).
  const styleLinks = (
    (await readFile(path.join(rendererRoot, 'index.html'), 'utf8')).match(/<link rel="stylesheet"[^>]*>/g) ??
    []
  ).join('\n');

  const server = createServer((request, response) => {
    securityHeaders(response);
    void handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.end();
      } else if (error instanceof RequestRefused) {
        // Stop reading what is left of an oversized body: answer, then close the connection.
        response.setHeader('Connection', 'close');
        refuse(response, error.status, 'INVALID_ARGUMENT', error.message);
      } else {
        refuse(response, 500, 'INVALID_ARGUMENT', 'The request could not be handled.');
      }
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host ?? '';
    if (!allowedHosts.includes(host)) {
      refuse(
        response,
        403,
        'PERMISSION_DENIED',
        'Unknown Host: encplan ui answers only on its loopback address.',
      );
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedHosts.some((allowed) => origin === `http://${allowed}`)) {
      refuse(response, 403, 'PERMISSION_DENIED', 'Requests from other origins are refused.');
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '/', `http://${host}`);
    } catch {
      throw new RequestRefused(400, 'Malformed URL.');
    }
    const method = METHOD_BY_PATH.get(url.pathname);
    if (url.pathname.startsWith('/api/')) {
      if (method === undefined || request.method !== 'POST') {
        refuse(response, 404, 'INVALID_ARGUMENT', 'No such API call.');
        return;
      }
      const given = request.headers[TOKEN_HEADER];
      if (typeof given !== 'string') {
        refuse(response, 401, 'PERMISSION_DENIED', `Missing token: send it in the ${TOKEN_HEADER} header.`);
        return;
      }
      if (!sameToken(given, token)) {
        refuse(response, 403, 'PERMISSION_DENIED', 'Wrong token: it is not the one of this encplan ui run.');
        return;
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        refuse(response, 415, 'INVALID_ARGUMENT', 'API calls must send application/json.');
        return;
      }
      const text = await readBody(request);
      let input: unknown;
      try {
        input = text === '' ? undefined : (JSON.parse(text) as { input?: unknown }).input;
      } catch {
        refuse(response, 400, 'INVALID_ARGUMENT', 'The body is not JSON.');
        return;
      }
      const envelope = await options.handlers[method](input);
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(envelope));
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      refuse(response, 405, 'INVALID_ARGUMENT', 'Only GET for pages.');
      return;
    }
    if (['', 'index.html'].includes(decodePath(url.pathname).replace(/^\/+/, ''))) {
      // The page itself needs the token (?token= on first load, then the cookie, so a reload works);
      // the scripts and styles it loads are the same for everyone and carry no data.
      const given = pageToken(url, request, cookieName);
      if (given === null || !sameToken(given, token)) {
        const status = given === null ? 401 : 403;
        if (wantsJson(request)) {
          refuse(response, status, 'PERMISSION_DENIED', REFUSAL_TEXT[status].title);
        } else {
          response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
          response.end(request.method === 'HEAD' ? undefined : refusalPage(status, port, styleLinks));
        }
        return;
      }
      response.setHeader('Set-Cookie', `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    }
    await serveStatic(url.pathname, response);
  }

  async function serveStatic(pathname: string, response: ServerResponse): Promise<void> {
    const relative = pathname === '/' ? 'index.html' : decodePath(pathname).replace(/^\/+/, '');
    const candidate = path.resolve(rendererRoot, relative);
    let file: string;
    try {
      file = await realpath(candidate);
    } catch {
      refuse(response, 404, 'INVALID_ARGUMENT', 'Not found.');
      return;
    }
    if (!file.startsWith(`${rendererRoot}${path.sep}`) || CONTENT_TYPES[path.extname(file)] === undefined) {
      refuse(response, 404, 'INVALID_ARGUMENT', 'Not found.');
      return;
    }
    const body = await readFile(file);
    response.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    response.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  cookieName = `encplan-token-${String(port)}`;
  allowedHosts = [`127.0.0.1:${String(port)}`, `localhost:${String(port)}`];
  return {
    url: `http://127.0.0.1:${String(port)}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) {
            resolve();
          } else {
            reject(error);
          }
        });
      }),
  };
}
