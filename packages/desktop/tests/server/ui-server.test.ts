import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { createBridgeHandlers } from '../../src/backend/bridge-handlers.js';
import { createWizardBackend } from '../../src/backend/wizard-services.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';

const FIXTURE = path.join(REPO_ROOT, 'fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json');

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * A raw HTTP request, so tests can set Host and Origin as an attacker's page or a rebinding DNS would.
 * `ignoreWriteErrors`: a server that answers early and closes may make the rest of the upload fail; that is fine.
 */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  ignoreWriteErrors = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!(ignoreWriteErrors && (error.code === 'EPIPE' || error.code === 'ECONNRESET'))) {
        reject(error);
      }
    });
    outgoing.end(options.body);
  });
}

describe('the encplan ui server', () => {
  let server: UiServer;
  let rendererDir: string;
  let api: (method: string, input: unknown, headers?: Record<string, string>) => Promise<Reply>;
  /** A GET of `path` as the wizard's own page asks it (Host 127.0.0.1:port). */
  const get = (urlPath: string) =>
    send(server.port, { path: urlPath, headers: { Host: `127.0.0.1:${String(server.port)}` } });

  beforeAll(async () => {
    rendererDir = await mkdtemp(path.join(tmpdir(), 'encplan-test-renderer-'));
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>wizard</title>');
    await writeFile(path.join(tmpdir(), 'encplan-test-outside.html'), 'secret');
    const backend = await createWizardBackend({
      assessmentFiles: [FIXTURE],
      searchPath: '',
      userId: 1000,
      stepDelayMs: 0,
    });
    server = await startUiServer({
      rendererDir,
      handlers: createBridgeHandlers(backend.services, backend.jobs),
    });
    api = (method, input, headers = {}) =>
      send(server.port, {
        method: 'POST',
        path: `/api/${method}`,
        headers: {
          Host: `127.0.0.1:${String(server.port)}`,
          'Content-Type': 'application/json',
          'X-Encplan-Token': server.token,
          ...headers,
        },
        body: JSON.stringify({ input }),
      });
  });

  afterAll(async () => {
    await server.close();
    await rm(rendererDir, { recursive: true, force: true });
    await rm(path.join(tmpdir(), 'encplan-test-outside.html'), { force: true });
  });

  it('listens on 127.0.0.1 on a random port and prints a URL with a 256-bit token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves the renderer with a strict CSP and no Referer leak of the token', async () => {
    const reply = await get(`/?token=${server.token}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('wizard');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    // The token becomes an HttpOnly, same-site cookie for this port, so a reload without ?token= works.
    const cookie = String(reply.headers['set-cookie']);
    expect(cookie).toContain(`encplan-token-${String(server.port)}=${server.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const reload = await send(server.port, {
      path: '/',
      headers: {
        Host: `127.0.0.1:${String(server.port)}`,
        Cookie: `encplan-token-${String(server.port)}=${server.token}`,
      },
    });
    expect(reload.status).toBe(200);
  });

  it('answers the page without a token with a 401 page and with a wrong one with a 403 page that say how to open the wizard', async () => {
    const host = { Host: `127.0.0.1:${String(server.port)}` };
    const missing = await send(server.port, { path: '/', headers: { ...host, Accept: 'text/html,*/*' } });
    const wrongQuery = await send(server.port, { path: `/?token=${'f'.repeat(64)}`, headers: host });
    const wrongCookie = await send(server.port, {
      path: '/index.html',
      headers: { ...host, Cookie: `encplan-token-${String(server.port)}=${'f'.repeat(64)}` },
    });
    expect(missing.status).toBe(401);
    expect(missing.body).toContain('This wizard address has no token');
    for (const reply of [wrongQuery, wrongCookie]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toContain('This wizard address has the wrong token');
    }
    for (const reply of [missing, wrongQuery, wrongCookie]) {
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
      expect(reply.body).toContain('<code>encplan ui</code>');
      expect(reply.body).toContain(`http://127.0.0.1:${String(server.port)}/?token=…`);
      expect(reply.body).not.toContain(server.token);
      expect(reply.body).not.toContain('<script');
    }
    // JSON clients get the envelope, with the same statuses.
    const json = { ...host, Accept: 'application/json' };
    const missingJson = await send(server.port, { path: '/', headers: json });
    const wrongJson = await send(server.port, { path: `/?token=${'f'.repeat(64)}`, headers: json });
    expect([missingJson.status, wrongJson.status]).toEqual([401, 403]);
    for (const reply of [missingJson, wrongJson]) {
      expect(reply.headers['content-type']).toBe('application/json');
      expect(JSON.parse(reply.body)).toMatchObject({
        schema: 'encplan.bridge',
        status: 'error',
        error: { code: 'PERMISSION_DENIED' },
      });
    }
    // A percent-encoded name of the page is the page, and needs the token too.
    expect((await send(server.port, { path: '/%69ndex.html', headers: host })).status).toBe(401);
  });

  it('answers API calls with the token with an envelope', async () => {
    const reply = await api('listDevices', undefined);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      schema: 'encplan.bridge',
      status: 'ok',
      result: { devices: [{ path: '/dev/loop2' }] },
    });
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    const without = await send(server.port, {
      method: 'POST',
      path: '/api/listDevices',
      headers: { Host: `127.0.0.1:${String(server.port)}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const wrong = await api('listDevices', undefined, { 'X-Encplan-Token': 'f'.repeat(64) });
    expect([without.status, wrong.status]).toEqual([401, 403]);
    for (const reply of [without, wrong]) {
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'error', error: { code: 'PERMISSION_DENIED' } });
    }
  });

  it('refuses another origin even with the token', async () => {
    const reply = await api('listDevices', undefined, { Origin: 'https://evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('other origins');
  });

  it('refuses a foreign Host header (DNS rebinding), pages included', async () => {
    const page = await send(server.port, { path: '/', headers: { Host: 'evil.example' } });
    const call = await api('listDevices', undefined, { Host: `evil.example:${String(server.port)}` });
    expect(page.status).toBe(403);
    expect(call.status).toBe(403);
  });

  it('accepts its own origin and localhost', async () => {
    const reply = await api('capabilities', undefined, { Origin: `http://127.0.0.1:${String(server.port)}` });
    const local = await api('capabilities', undefined, {
      Host: `localhost:${String(server.port)}`,
      Origin: `http://localhost:${String(server.port)}`,
    });
    expect(reply.status).toBe(200);
    expect(local.status).toBe(200);
  });

  it('validates API input and refuses non-JSON bodies and unknown calls', async () => {
    const invalid = await api('startAssessment', { device: '/etc/passwd', benchmark: 'none', backends: [] });
    expect(JSON.parse(invalid.body)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
    const form = await api('listDevices', undefined, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const unknown = await api('runShell', 'id');
    expect(unknown.status).toBe(404);
  });

  it('does not serve files outside the renderer directory', async () => {
    const reply = await get('/..%2fencplan-test-outside.html');
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('secret');
  });

  it('answers a 10 MB body with a valid token with 413, whether its length is declared or streamed', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const headers = {
      Host: `127.0.0.1:${String(server.port)}`,
      'Content-Type': 'application/json',
      'X-Encplan-Token': server.token,
    };
    for (const transfer of [{ 'Content-Length': String(huge.length) }, { 'Transfer-Encoding': 'chunked' }]) {
      const reply = await send(
        server.port,
        { method: 'POST', path: '/api/listDevices', headers: { ...headers, ...transfer }, body: huge },
        true,
      );
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
    }
    // The server still answers afterwards.
    expect((await api('listDevices', undefined)).status).toBe(200);
  });

  it('answers malformed percent-encoding with 400, not 500', async () => {
    for (const bad of ['/%E0%A4%A', '/%zz', '/assets/%']) {
      const reply = await get(bad);
      expect(reply.status, bad).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
    }
  });
});
