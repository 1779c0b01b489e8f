import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumMissing, launchChromium, screenshot } from './chromium.js';
import { startEncplanUi, type EncplanUiProcess } from './encplan-ui-process.js';
import { noteSkip } from '../support/skip-reasons.js';

/** Tools the loop-device set-up needs, looked up where Debian puts them. */
function findTool(name: string): string | null {
  return (
    ['/usr/sbin', '/sbin', '/usr/bin', '/bin']
      .map((directory) => path.join(directory, name))
      .find((candidate) => existsSync(candidate)) ?? null
  );
}

const losetup = findTool('losetup');
const sgdisk = findTool('sgdisk');
const partprobe = findTool('partprobe');
const skipReason =
  chromiumMissing ??
  (process.getuid?.() !== 0
    ? 'not root: loop devices need root'
    : losetup === null || sgdisk === null || partprobe === null
      ? 'losetup, sgdisk or partprobe missing (util-linux, gdisk, parted)'
      : null);
noteSkip(import.meta.url, skipReason);

describe.skipIf(skipReason !== null)('encplan ui over the real core, on a loop device', () => {
  let directory: string;
  let loopDevice: string | null = null;
  let ui: EncplanUiProcess | null = null;
  let browser: Browser | null = null;

  beforeAll(async () => {
    // Clean-up is registered (afterAll) before anything is created; only a sparse file in a private dir.
    directory = await mkdtemp(path.join(tmpdir(), 'encplan-test-ui-live-'));
    const image = path.join(directory, 'disk.img');
    await writeFile(image, '');
    await truncate(image, 512 * 1024 * 1024);
    loopDevice = execFileSync(losetup!, ['--find', '--show', '--partscan', image], {
      encoding: 'utf8',
    }).trim();
    // One 300 MiB partition, the rest never allocated: the space section must say so. sgdisk's own re-read
    // request does not reach loop devices here; partprobe makes the kernel see the new table.
    execFileSync(sgdisk!, ['-n', '1:2048:+300M', '-c', '1:data', loopDevice], { stdio: 'ignore' });
    execFileSync(partprobe!, [loopDevice]);
    ui = await startEncplanUi([]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    if (loopDevice !== null) {
      execFileSync(losetup!, ['-d', loopDevice]);
    }
    await rm(directory, { recursive: true, force: true });
  });

  it(
    'lists the loop device, assesses it live with encplan assess, benchmarks ciphers, and exports the report',
    { timeout: 240_000 },
    async () => {
      const context = await browser!.newContext({
        viewport: { width: 1100, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      await page.goto(ui!.url.href);
      // Loop devices are listed after the real disks, in a folded group: open it to choose one.
      await page.locator('details.device-group > summary').click();
      const radio = page.getByRole('radio', { name: new RegExp(`${loopDevice!.replace('/dev/', '')} `) });
      await radio.check();
      await screenshot(page, 'live-1-drive');
      await page.getByRole('button', { name: 'Check this drive' }).click();
      const space = page.locator('article', { hasText: 'Space and spare area' });
      await space.waitFor({ timeout: 60_000 });
      await expect(space.textContent()).resolves.toMatch(/\(4[01]\.\d %\) of the disk is in no partition/);
      await expect(page.locator('p.device-line').textContent()).resolves.toContain(loopDevice!);
      await screenshot(page, 'live-2-health');
      expect((await axeViolations(page)).violations).toEqual([]);
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByRole('checkbox', { name: 'LUKS2 (dm-crypt) I/O' }).isDisabled()).resolves.toBe(
        true,
      );
      // What this machine cannot run is offered disabled, with the reason (the host kernel has no device-mapper).
      await expect(
        page
          .getByText(/Not available here\. Needs .*device-mapper/)
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      // The cipher benchmark runs for real (memory only): encplan assess --benchmark --quick, with its progress.
      await expect(
        page.getByRole('checkbox', { name: /^Cipher and key-derivation speed/ }).isChecked(),
      ).resolves.toBe(true);
      await page.getByRole('button', { name: 'Start benchmark' }).click();
      await page.getByText(/^Running: /).waitFor();
      await screenshot(page, 'live-3-benchmark-running');
      await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 150_000 });
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { name: /^Cipher speed/ }).waitFor();
      await expect(page.locator('article[aria-labelledby="section-ciphers"]').textContent()).resolves.toMatch(
        /aes-xts, 512-bit key/,
      );
      await screenshot(page, 'live-2-health-with-ciphers');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'See the plan' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Save JSON report' }).click(),
      ]);
      const envelope = JSON.parse(await readFile(await download.path(), 'utf8'));
      expect(envelope).toMatchObject({
        schema: 'encplan.assessment',
        result: { target: { path: loopDevice }, provenance: { mode: 'live' } },
      });
      await screenshot(page, 'live-5-export');
      await context.close();
    },
  );
});
