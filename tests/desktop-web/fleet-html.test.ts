import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';
import { ARTIFACTS, chromiumMissing, launchChromium } from './chromium.js';

noteSkip(import.meta.url, chromiumMissing);

/*
 * Issue 26 item 5: "the fleet HTML follows the disk report: dark mode, print", looked at as a fleet admin does,
 * in Chromium: the HTML the built CLI writes (`encplan fleet report DIR --html FILE`) over real documents of
 * every OS (the kernel lane's LUKS/LVM/TCRYPT stacks, a BitLocker bundle with protection off mid-conversion, a
 * used-space-only BitLocker, FileVault, a `collect --all` bundle), on a laptop window, in dark mode and as
 * printed. The PNGs are kept in test-artifacts/desktop-web/fleet-*.png.
 */

/** The fleet as the Ansible collection fetches it: one folder per machine. */
const MACHINES: Readonly<Record<string, readonly string[]>> = {
  lane: ['assessments-kernel-lane/qemu-debian12-luks2-slot3-token-vg-two-disks.json'],
  lane2: ['assessments-kernel-lane/qemu-debian12-stacks-luks2-lvm-tcrypt.json'],
  web1: ['assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'],
  win1: ['bundles/windows-de-win10-bitlocker-3pct-protection-off'],
  win2: ['bundles/windows-win11-bc901-bitlocker-xtsaes128'],
  mac1: ['assessments-1.3/darwin-intel-catalina-filevault-disk1s5-assessment-1.3.json'],
  all1: ['bundles/machine-all-loops-and-virtio-node-missing-debian12'],
  // A disk whose only encryption is an fscrypt home (fleet-report 1.4 fileLevelEncryption).
  fs1: ['bundles/loop-ext4-fscrypt-home-debian12'],
};

/** WCAG 2.1 relative luminance and contrast ratio (SC 1.4.3) of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number).map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** The text colours of the page against what they are drawn on: body, table text, muted lines, badges. */
function textPairs(page: Page) {
  return page.evaluate(() => {
    const bodyBackground = getComputedStyle(document.body).backgroundColor;
    const pick = (selector: string) => Array.from(document.querySelectorAll(selector)).slice(0, 3);
    return [
      ...['body', 'p.meta', 'th', 'td', 'td small', 'summary'].flatMap((selector) =>
        pick(selector).map((element) => ({
          selector,
          fg: getComputedStyle(element).color,
          bg: bodyBackground,
        })),
      ),
      ...pick('.badge').map((element) => ({
        selector: `.badge ${element.className}`,
        fg: getComputedStyle(element).color,
        bg: getComputedStyle(element).backgroundColor,
      })),
    ];
  });
}

describe.skipIf(chromiumMissing !== null)('the fleet HTML in Chromium: light, dark, print', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'encplan-fleet-html-'));
  const htmlFile = path.join(folder, 'fleet-report.html');
  let browser: Browser | undefined;

  beforeAll(async () => {
    for (const [machine, sources] of Object.entries(MACHINES)) {
      for (const source of sources) {
        const to = path.join(folder, 'fetched', machine, path.basename(source));
        mkdirSync(path.dirname(to), { recursive: true });
        cpSync(path.join(REPO_ROOT, 'fixtures', source), to, { recursive: true });
      }
    }
    const written = spawnSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'packages/cli/bin/run.js'),
        'fleet',
        'report',
        path.join(folder, 'fetched'),
        '--require-method',
        'xts-aes-256',
        '--html',
        htmlFile,
      ],
      { encoding: 'utf8' },
    );
    expect(written.status, written.stderr).toBe(0);
    browser = await launchChromium();
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function open(options: { colorScheme: 'light' | 'dark'; media: 'screen' | 'print' }) {
    if (browser === undefined) {
      throw new Error('Chromium is started in beforeAll');
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.emulateMedia(options);
    await page.goto(pathToFileURL(htmlFile).href);
    await page.screenshot({
      path: path.join(ARTIFACTS, `fleet-${options.media === 'print' ? 'print' : options.colorScheme}.png`),
      fullPage: true,
    });
    return page;
  }

  it('light, on a 1280-pixel laptop window: every column is on the page, no sideways scrolling', async () => {
    const page = await open({ colorScheme: 'light', media: 'screen' });
    const { scrollWidth, clientWidth, rows } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      rows: document.querySelectorAll('tbody tr').length,
    }));
    // One row per disk of every machine, and the version table's rows.
    expect(rows).toBeGreaterThan(Object.keys(MACHINES).length);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    // The fscrypt home is named in the encryption column, as no full-disk encryption.
    await expect(
      page.getByText('file-level only, not full-disk: fscrypt /home/alice').isVisible(),
    ).resolves.toBe(true);
    for (const pair of await textPairs(page)) {
      expect(contrast(pair.fg, pair.bg), `${pair.selector}: ${pair.fg} on ${pair.bg}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
    await page.close();
  });

  it('dark: a dark page whose text, muted lines and badges keep WCAG AA contrast', async () => {
    const page = await open({ colorScheme: 'dark', media: 'screen' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(contrast(background, 'rgb(0, 0, 0)')).toBeLessThan(1.5);
    const pairs = await textPairs(page);
    expect(pairs.map((pair) => pair.selector)).toEqual(
      expect.arrayContaining(['body', 'p.meta', 'td', 'summary', '.badge badge tone-bad']),
    );
    for (const pair of pairs) {
      expect(contrast(pair.fg, pair.bg), `${pair.selector}: ${pair.fg} on ${pair.bg}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
    await page.close();
  });

  it('print: black on white, the table header repeated, and every folded part printed open', async () => {
    const page = await open({ colorScheme: 'dark', media: 'print' });
    const printed = await page.evaluate(() => ({
      color: getComputedStyle(document.body).color,
      background: getComputedStyle(document.body).backgroundColor,
      header: getComputedStyle(document.querySelectorAll('thead')[1] ?? document.body).display,
      // A closed <details> is as tall as its summary; printed open, its body adds to it.
      folded: Array.from(document.querySelectorAll('details'), (details) => ({
        summary: details.querySelector('summary')?.textContent ?? '',
        open:
          details.getBoundingClientRect().height >
          (details.querySelector('summary')?.getBoundingClientRect().height ?? 0) + 1,
      })),
    }));
    expect(printed).toMatchObject({ color: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)' });
    // Printed from a dark-mode system, the badges and bars still take the light theme: no pale bar on paper.
    for (const pair of await textPairs(page)) {
      expect(contrast(pair.fg, pair.bg), `${pair.selector}: ${pair.fg} on ${pair.bg}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
    const bars = await page.evaluate(() =>
      Array.from(document.querySelectorAll('svg [class^="bar-"]'), (bar) => getComputedStyle(bar).fill),
    );
    expect(bars.length).toBeGreaterThan(0);
    for (const fill of bars) {
      expect(contrast(fill, printed.background), fill).toBeGreaterThanOrEqual(3);
    }
    expect(printed.header).toBe('table-header-group');
    // The issues' "why", the encrypted volumes and each plan's source: none may stay folded on paper.
    expect(printed.folded.map((entry) => entry.summary)).toEqual(expect.arrayContaining(['why', 'volumes']));
    expect(printed.folded.filter((entry) => !entry.open)).toEqual([]);
    // The protection-off BitLocker row's reason is on paper, not behind a click.
    await expect(
      page
        .getByText(/C: has protection off: the key is stored in the clear/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await page.close();
  });
});
