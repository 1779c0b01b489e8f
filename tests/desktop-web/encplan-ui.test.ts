import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { axeViolations, chromiumMissing, launchChromium, screenshot } from './chromium.js';
import { startEncplanUi, type EncplanUiProcess } from './encplan-ui-process.js';
import { noteSkip } from '../support/skip-reasons.js';

const FIXTURES = path.join(REPO_ROOT, 'fixtures/assessments');

noteSkip(import.meta.url, chromiumMissing);

describe.skipIf(chromiumMissing !== null)('encplan ui in Chromium over saved assessments', () => {
  let ui: EncplanUiProcess;
  let url: URL;
  let browser: Browser;

  beforeAll(async () => {
    ui = await startEncplanUi([
      '--assessment',
      path.join(FIXTURES, 'virtio-system-disk-whole-ext4-debian12.json'),
      '--assessment',
      path.join(FIXTURES, 'loop-gpt-ext4-luks2-unallocated-debian12.json'),
      '--step-delay-ms',
      '40',
    ]);
    url = ui.url;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await ui.stop();
  });

  it('prints a loopback URL with a token and how to reach it over SSH', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(ui.output()).toContain(`ssh -L ${url.port}:127.0.0.1:${url.port}`);
  });

  it('walks the five steps of the served wizard over the HTTP bridge', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
    // The token is taken out of the address bar once read.
    expect(page.url()).not.toContain('token=');
    await screenshot(page, 'ui-1-drive');
    await page.getByRole('button', { name: 'Check this drive' }).click();
    await page.getByRole('heading', { name: /^TRIM and discards/ }).waitFor();
    await screenshot(page, 'ui-2-health');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Start benchmark' }).click();
    await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('.chart svg rect').count()).resolves.toBeGreaterThanOrEqual(8);
    await screenshot(page, 'ui-3-benchmark');
    await page.getByRole('button', { name: 'See the plan' }).click();
    await page.locator('section.strategy').waitFor();
    await screenshot(page, 'ui-4-plan');
    expect((await axeViolations(page)).violations).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    // The system disk is reinstalled encrypted (re-planned by this version from the saved facts): no commands.
    await expect(page.getByRole('textbox', { name: 'Commands' }).inputValue()).resolves.toContain(
      '# The plan has no commands to run.',
    );
    await screenshot(page, 'ui-5-export');
    // A reload keeps working: the token lives in sessionStorage for this tab only.
    await page.reload();
    await page.getByRole('radio', { name: /\/dev\/vda/ }).waitFor();
    await context.close();
  });

  it('answers the wizard address without its token (401) or with a wrong one (403) with a page that says how to open it', async () => {
    for (const [status, address, title] of [
      [401, new URL('/', url).href, 'This wizard address has no token'],
      [403, `${new URL('/', url).href}?token=${'0'.repeat(64)}`, 'This wizard address has the wrong token'],
    ] as const) {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 800, height: 600 },
      ]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ viewport, colorScheme });
          const page = await context.newPage();
          const response = await page.goto(address);
          expect(response?.status()).toBe(status);
          expect(response?.headers()['content-type']).toContain('text/html');
          await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(title);
          await expect(page.locator('main').textContent()).resolves.toMatch(
            /encplan ui.*prints the wizard's address.*\?token=/s,
          );
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          expect((await axeViolations(page)).violations).toEqual([]);
          await screenshot(
            page,
            `ui-${String(status)}-${String(viewport.width)}x${String(viewport.height)}-${colorScheme}`,
          );
          await context.close();
        }
      }
      // A JSON client still gets the error envelope, with the same status.
      const json = await fetch(address, { headers: { Accept: 'application/json' } });
      expect(json.status).toBe(status);
      await expect(json.json()).resolves.toMatchObject({
        status: 'error',
        error: { code: 'PERMISSION_DENIED', message: title },
      });
    }
  });

  it('tells an open tab whose token is no longer accepted what to open, with a way to try again, accessibly', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByRole('radio', { name: /\/dev\/vda/ }).waitFor();
    // The page reloads from its cookie, but the API token it kept is stale (an earlier run's).
    await page.evaluate((stale) => {
      sessionStorage.setItem('encplan-token', stale);
    }, '0'.repeat(64));
    await page.reload();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(
      /^encplan was not allowed to do thisencplan ui refused this page \(HTTP 403\).*Open the address the running encplan ui printed/s,
    );
    await expect(alert.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'ui-403-wrong-token');
    expect((await axeViolations(page)).violations).toEqual([]);
    await context.close();
  });

  it('refuses an API call without the token or from a foreign origin', async () => {
    const endpoint = new URL('/api/listDevices', url);
    const headers = { 'Content-Type': 'application/json' };
    const token = url.searchParams.get('token') ?? '';
    const withToken = await fetch(endpoint, {
      method: 'POST',
      headers: { ...headers, 'X-Encplan-Token': token },
      body: '{}',
    });
    expect(withToken.status).toBe(200);
    const withoutToken = await fetch(endpoint, { method: 'POST', headers, body: '{}' });
    expect(withoutToken.status).toBe(401);
    await expect(withoutToken.json()).resolves.toMatchObject({
      status: 'error',
      error: { code: 'PERMISSION_DENIED' },
    });
    const wrongToken = await fetch(endpoint, {
      method: 'POST',
      headers: { ...headers, 'X-Encplan-Token': '0'.repeat(64) },
      body: '{}',
    });
    expect(wrongToken.status).toBe(403);
    const foreign = await fetch(endpoint, {
      method: 'POST',
      headers: { ...headers, 'X-Encplan-Token': token, Origin: 'http://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
  });

  it('stops the browser page of another origin from reading the API', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // A page on another loopback origin (a different port) tries the API with the stolen-looking token.
    await page.goto('about:blank');
    const status = await page.evaluate(async (target) => {
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Encplan-Token': 'guess' },
          body: '{}',
        });
        return response.status;
      } catch {
        return 'blocked';
      }
    }, new URL('/api/listDevices', url).href);
    expect(status).toBe('blocked');
    await context.close();
  });

  it('stops on Ctrl-C with the documented cancel exit code 130', async () => {
    await expect(ui.stop()).resolves.toBe(130);
  });
});
