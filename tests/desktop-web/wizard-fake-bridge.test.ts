import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumMissing, screenshot, screenshotAxeClean, useWizardInChromium } from './chromium.js';
import { noteSkip } from '../support/skip-reasons.js';

noteSkip(import.meta.url, chromiumMissing);

describe.skipIf(chromiumMissing !== null)('the wizard over the fake bridge in Chromium', () => {
  const wizard = useWizardInChromium();
  let context: BrowserContext;
  let page: Page;

  async function openWizard(): Promise<Page> {
    const errors: string[] = [];
    const opened = await wizard.open(
      { viewport: { width: 1100, height: 900 }, acceptDownloads: true },
      (fresh) => {
        fresh.on('pageerror', (error) => errors.push(error.message));
        fresh.on('console', (message) => {
          if (message.type() === 'error') {
            errors.push(message.text());
          }
        });
      },
    );
    context = opened.context;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: `http://127.0.0.1:${String(wizard.server.port)}`,
    });
    await opened.page.getByRole('radio', { name: /\/dev\/vda/ }).waitFor();
    expect(errors).toEqual([]);
    return opened.page;
  }

  it('walks all five steps for a benchmarked virtual disk, with no accessibility violations on any step', async () => {
    page = await openWizard();
    // Step 1: drives with model, size, transport, health badge; the system disk is marked.
    await expect(page.locator('li.device', { hasText: '/dev/vda' }).textContent()).resolves.toMatch(
      /\/dev\/vda · 256\.0 GiB · virtual disk.*Health unknown.*System disk/s,
    );
    await expect(page.locator('li.device', { hasText: '/dev/loop2' }).textContent()).resolves.toMatch(
      /\/dev\/loop2 · 1\.0 GiB · disk image \(loop device\)/s,
    );
    await expect(page.getByRole('button', { name: 'Check this drive' }).isDisabled()).resolves.toBe(true);
    await screenshotAxeClean(page, '1-drive');

    await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
    await page.getByRole('button', { name: 'Check this drive' }).click();

    // Step 2: verdicts in plain words, details with sources on demand.
    await page.getByRole('heading', { name: /^Drive health/ }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Health, TRIM and space',
    );
    await expect(page.locator('article', { hasText: 'Drive health' }).textContent()).resolves.toContain(
      'The drive did not tell us how healthy it is',
    );
    await page
      .locator('article', { hasText: 'Drive health' })
      .getByText(/Details and sources/)
      .click();
    // Labels are written by people, and an unknown value says "unknown" (never a blank cell).
    const endurance = page
      .locator('article', { hasText: 'Drive health' })
      .getByRole('row', { name: /Endurance used/ });
    await expect(endurance.textContent()).resolves.toMatch(/Endurance used\s*unknown/);
    await expect(
      page.locator('article', { hasText: 'Space and spare area' }).textContent(),
    ).resolves.toContain('used whole');
    await screenshotAxeClean(page, '2-health');

    // Step 3: quick/full, backends from the capabilities, live progress and chart.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('radio', { name: 'Quick' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'fscrypt' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Start benchmark' }).click();
    // The running test is named in words, and the grid fills in as each result arrives.
    await page.locator('#benchmark-grid td.result:not(.pending):not(.running)').first().waitFor();
    await expect(page.locator('label[for="benchmark-progress"]').textContent()).resolves.toMatch(
      /^Running: (SEQ1M|RND4K) Q\d+T1 (read|write), (plain|encrypted \(fscrypt\)) · /,
    );
    // The bar never goes back while the replay runs.
    const seen: number[] = [];
    while (seen.length < 8 && (await page.getByRole('button', { name: 'Cancel' }).count()) > 0) {
      seen.push(Number(await page.getByRole('progressbar').getAttribute('value')));
      await page.waitForTimeout(60);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await page.locator('.chart svg rect').nth(2).waitFor();
    const progress = Number(await page.getByRole('progressbar').getAttribute('value'));
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(100);
    await expect(page.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true);
    await screenshotAxeClean(page, '3-benchmark-running');
    await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 10_000 });
    await expect(page.getByRole('status').last().textContent()).resolves.toBe('Benchmark finished.');
    // Done: the grid stays, a row per profile, plain and fscrypt read and write, every cell a figure in MB/s;
    // a figure the page cache served (fscrypt's writes here) is starred, and only such a figure.
    const grid = page.getByRole('table', { name: /^Results in MB\/s/ });
    await expect(grid.locator('tbody tr').count()).resolves.toBe(4);
    await expect(grid.locator('thead').textContent()).resolves.toBe('PlainfscryptTestReadWriteReadWrite');
    const cells = await grid.locator('tbody td').allTextContents();
    expect(cells).toHaveLength(16);
    for (const cell of cells) {
      expect(cell).toMatch(/^\d+(\.\d+)?\*?$/);
    }
    const starred = await grid.locator('tbody td.absorbed').allTextContents();
    expect(cells.filter((cell) => cell.endsWith('*'))).toEqual(starred);
    await screenshot(page, '3-benchmark-done');

    // Step 4: recommendations with reasons, the plain vs encrypted chart, predicted vs measured.
    await page.getByRole('button', { name: 'See the plan' }).click();
    // The "Why" cards are folded to their title and value.
    const cipherCard = page.locator('ol.recommendations details', { hasText: /^Cipher/ });
    await expect(cipherCard.locator('summary').isVisible()).resolves.toBe(true);
    await expect(cipherCard.getAttribute('open')).resolves.toBeNull();
    await expect(page.getByRole('img', { name: /plain vs encrypted/ }).count()).resolves.toBe(2);
    // Throughput by block size: without a sweep, the queue-depth-1 pair, plain next to fscrypt.
    await expect(page.getByRole('img', { name: /^Throughput by block size/ }).count()).resolves.toBe(1);
    // The long tables are folded under a summary; opened, they hold every measurement.
    await page.getByText('Every measurement (fio)').click();
    await page.getByText('Predicted encrypted speed next to measured plain speed').click();
    await expect(page.getByRole('table', { name: 'Measured with fio' }).textContent()).resolves.toMatch(
      /SEQ1M Q8T1 read.*plain.*\d+\.\d MiB\/s/s,
    );
    // Predicted encrypted next to measured plain throughput, per profile ("unknown" where the plan has none).
    await expect(
      page
        .getByRole('table', { name: 'Predicted encrypted throughput next to measured plain throughput' })
        .textContent(),
    ).resolves.toMatch(/SEQ1M Q8T1 read\d+\.\d MiB\/s(\d+\.\d MiB\/s|unknown)/);
    await screenshotAxeClean(page, '4-plan');

    // The plan's options re-plan at once from the same assessment (no new job, no new measurement).
    const decisions = page.locator('section.answer dl.decisions');
    await expect(decisions.locator('dd').first().textContent()).resolves.toMatch(/LUKS2/);
    await page.getByLabel('Encryption', { exact: true }).selectOption({ label: 'VeraCrypt' });
    await expect(decisions.locator('dd').first().textContent()).resolves.toMatch(/VeraCrypt/);
    await page.getByLabel('Encryption', { exact: true }).selectOption({ index: 0 });
    await expect(decisions.locator('dd').first().textContent()).resolves.toMatch(/LUKS2/);
    // A value outside the one definition's range is refused in words, with the range; a good one plans.
    const memory = page.getByLabel('Memory of the machine that unlocks it (MiB)');
    await memory.fill('0.01');
    await expect(page.locator('#plan-error').textContent()).resolves.toMatch(/at least 128 KiB/);
    await memory.fill('1024');
    await expect(page.locator('#plan-error').count()).resolves.toBe(0);
    await expect(page.locator('section.answer').textContent()).resolves.toMatch(/argon2id/i);
    await page.getByLabel('Password length (characters)').fill('600');
    await expect(page.locator('#plan-error').textContent()).resolves.toMatch(/from 1 to 512/);
    await page.getByLabel('Password length (characters)').fill('');
    await expect(page.locator('#plan-error').count()).resolves.toBe(0);

    // Step 5: JSON, self-contained HTML, the script, the clipboard.
    await page.getByRole('button', { name: 'Next' }).click();
    const [htmlDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save HTML report' }).click(),
    ]);
    const html = await readFile(await htmlDownload.path(), 'utf8');
    expect(htmlDownload.suggestedFilename()).toBe('encplan-vda.html');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src="http/);
    // The system disk is reinstalled encrypted (this version's plan, re-planned from the saved facts): no commands.
    expect(html).toContain('Reinstall encrypted');
    // The saved report itself: readable and accessible on its own, offline.
    const reportPage = await context.newPage();
    await reportPage.setContent(html);
    await expect(reportPage.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'encplan assessment of /dev/vda (Virtual disk)',
    );
    await screenshotAxeClean(reportPage, '5-export-html-report');
    await reportPage.close();
    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save JSON report' }).click(),
    ]);
    const saved = JSON.parse(await readFile(await jsonDownload.path(), 'utf8'));
    expect(saved.schema).toBe('encplan.assessment');
    expect(saved.result.disk.path).toBe('/dev/vda');
    const [scriptDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save commands as a script' }).click(),
    ]);
    const script = await readFile(await scriptDownload.path(), 'utf8');
    expect(script).toContain('# The plan has no commands to run.');
    await page.getByRole('button', { name: 'Copy commands' }).click();
    await page.getByText('Commands copied to the clipboard.').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(script);
    await screenshotAxeClean(page, '5-export');
    await context.close();
  });

  it('exports the script of a drive formatted fresh with its destructive lines commented out', async () => {
    page = await openWizard();
    await page.getByText('Loop devices (disk images): 3').click();
    await page.getByRole('radio', { name: /\/dev\/loop6/ }).check();
    await page.getByRole('button', { name: 'Check this drive' }).click();
    await page.getByRole('button', { name: 'Next' }).and(page.locator(':enabled')).click();
    await page.getByRole('button', { name: 'Skip to the plan' }).click();
    await expect(page.locator('section.strategy h2').textContent()).resolves.toBe('Format fresh');
    await page.getByRole('button', { name: 'Next' }).click();
    const [scriptDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save commands as a script' }).click(),
    ]);
    const script = await readFile(await scriptDownload.path(), 'utf8');
    // Destructive lines and the lines that depend on them are commented out in the wizard's script too.
    expect(script).toContain('# DESTROYS DATA');
    expect(script).toContain('\n# cryptsetup luksFormat --type luks2');
    expect(script).toContain('\n# cryptsetup open ');
    expect(script).not.toMatch(/^(sgdisk|cryptsetup|sh) /m);
    await context.close();
  });

  it('cancels a running benchmark and says it cleaned up', async () => {
    page = await openWizard();
    await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
    await page.getByRole('button', { name: 'Check this drive' }).click();
    await page.getByRole('button', { name: 'Next' }).and(page.locator(':enabled')).click();
    await page.getByRole('button', { name: 'Start benchmark' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Benchmark cancelled; everything it created was cleaned up.').waitFor();
    await expect(page.getByRole('button', { name: 'Run again' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('label[for="benchmark-progress"]').textContent()).resolves.toBe('Cancelled.');
    await screenshot(page, '3-benchmark-cancelled');
    await context.close();
  });

  it('is usable with the keyboard alone: choose a drive and move to the next step', async () => {
    page = await openWizard();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Skip to the current step',
    );
    // Tab reaches the first radio of the group; arrow keys move within it, as for any native radio group.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => (document.activeElement as HTMLInputElement).type)).resolves.toBe(
      'radio',
    );
    await page.keyboard.press('Space');
    // Then the folded group of loop devices, then Refresh.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Loop devices (disk images): 3',
    );
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Refresh the drive list',
    );
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Check this drive');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Drive health/ }).waitFor();
    // Focus moves to the new step's heading, so screen readers announce it.
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('step-title');
    await context.close();
  });

  it('shows a real assessment of a loop disk: existing LUKS2, never-allocated space, what the machine lacks', async () => {
    page = await openWizard();
    await page.getByText('Loop devices (disk images): 3').click();
    await page.getByRole('radio', { name: /loop2/ }).check();
    await page.getByRole('button', { name: 'Check this drive' }).click();
    const encryption = page.locator('article', { hasText: 'Existing encryption' });
    await encryption.waitFor();
    await expect(encryption.textContent()).resolves.toMatch(
      /LUKS2 on \/dev\/loop2p2 \(aes-xts-plain64, 512-bit key, key slots: pbkdf2\)\./,
    );
    await expect(
      page.locator('article', { hasText: 'Space and spare area' }).textContent(),
    ).resolves.toContain('(31.5 %) of the disk is in no partition');
    await expect(page.locator('article', { hasText: 'Drive health' }).textContent()).resolves.toContain(
      '/dev/loop2: Unable to detect device type',
    );
    await expect(
      page.locator('article', { hasText: 'What this machine can measure' }).textContent(),
    ).resolves.toContain('Device-mapper (dm-crypt) in the kernel: cryptsetup open fails');
    await screenshotAxeClean(page, '2-health-real-loop');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Skip to the plan' }).click();
    await expect(
      page.getByText(/^Not measured: No I\/O benchmark was run in this assessment/).isVisible(),
    ).resolves.toBe(true);
    // No measured I/O and no prediction: the predictions table says "unknown", never a blank cell.
    await page.getByText('Predicted encrypted speed next to measured plain speed').click();
    await expect(
      page
        .getByRole('table', { name: 'Predicted encrypted throughput next to measured plain throughput' })
        .textContent(),
    ).resolves.toMatch(/SEQ1M Q8T1 readunknownunknownunknownunknown/);
    await screenshot(page, '4-plan-real-loop');
    await context.close();
  });
});
