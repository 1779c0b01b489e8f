import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';

/**
 * The only test of a real Electron window, IPC round trip and sandbox (architecture 2.12, point 6). The
 * binary cannot be downloaded here, so it runs only when ENCPLAN_ELECTRON_BINARY points at one.
 */
const ELECTRON_BINARY = process.env.ENCPLAN_ELECTRON_BINARY;
noteSkip(
  import.meta.url,
  ELECTRON_BINARY === undefined
    ? 'the Electron binary cannot be downloaded here: set ENCPLAN_ELECTRON_BINARY to an Electron 45 binary to run it'
    : null,
);

describe.skipIf(ELECTRON_BINARY === undefined)('the Electron app (real binary)', () => {
  it('opens a sandboxed window whose page sees only window.encplan, and lists drives over real IPC', async () => {
    const app = await electron.launch({
      executablePath: ELECTRON_BINARY ?? '',
      args: [
        '--no-sandbox',
        path.join(REPO_ROOT, 'packages/desktop'),
        '--assessment',
        path.join(REPO_ROOT, 'fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'),
      ],
    });
    try {
      const page = await app.firstWindow();
      await page.getByRole('radio', { name: /loop2/ }).waitFor();
      const exposure = await page.evaluate(() => ({
        bridgeKeys: Object.keys(window.encplan ?? {}).sort(),
        hasRequire: typeof (globalThis as { require?: unknown }).require !== 'undefined',
        hasProcess: typeof (globalThis as { process?: unknown }).process !== 'undefined',
      }));
      expect(exposure).toEqual({
        bridgeKeys: ['cancel', 'capabilities', 'jobStatus', 'listDevices', 'startAssessment'],
        hasRequire: false,
        hasProcess: false,
      });
      await page.getByRole('radio', { name: /loop2/ }).check();
      await page.getByRole('button', { name: 'Check this drive' }).click();
      await page.getByRole('heading', { name: /^Drive health/ }).waitFor();
    } finally {
      await app.close();
    }
  });
});
