import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentDocument, renderHtmlReport, toReportView } from '@encplan/core';
import { loadChartRenderer } from '@encplan/core/node';
import { REPO_ROOT } from '../support/fake-tools.js';
import {
  ARTIFACTS,
  axeViolations,
  chromiumMissing,
  expectNoCodes,
  launchChromium,
  planIdsOf,
  SCHEMES,
  screenshot,
  screenshotAxeClean,
  useWizardInChromium,
  VIEWPORTS,
} from './chromium.js';
import { noteSkip } from '../support/skip-reasons.js';

noteSkip(import.meta.url, chromiumMissing);

describe.skipIf(chromiumMissing !== null)(
  'the HTML report in Chromium, light and dark, 1280×800 and 800×600',
  () => {
    let browser: Browser;
    // A real benchmarked assessment (fixtures/assessments/PROVENANCE.md).
    const envelope = assessmentDocument.envelope.parse(
      JSON.parse(
        readFileSync(
          path.join(REPO_ROOT, 'fixtures/assessments/virtio-system-disk-whole-ext4-debian12.json'),
          'utf8',
        ),
      ),
    );
    let html = '';

    beforeAll(async () => {
      html = renderHtmlReport(toReportView(envelope), await loadChartRenderer());
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser.close();
    });

    for (const viewport of VIEWPORTS) {
      for (const colorScheme of SCHEMES) {
        it(`${String(viewport.width)}×${String(viewport.height)} ${colorScheme}: answer on the first screen, no overflow, axe clean`, async () => {
          const context = await browser.newContext({ viewport, colorScheme });
          const page = await context.newPage();
          await page.setContent(html);
          // The answer is visible without scrolling; nothing runs wider than the window.
          const answer = await page.locator('#answer').boundingBox();
          expect(answer?.y).toBeLessThan(viewport.height / 2);
          await expect(page.locator('#answer .headline').isVisible()).resolves.toBe(true);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          expect(background).toBe(colorScheme === 'dark' ? 'rgb(20, 20, 20)' : 'rgb(255, 255, 255)');
          await page.screenshot({
            path: path.join(
              REPO_ROOT,
              'test-artifacts/desktop-web',
              `report-${String(viewport.width)}x${String(viewport.height)}-${colorScheme}-first-screen.png`,
            ),
          });
          await screenshot(
            page,
            `report-${String(viewport.width)}x${String(viewport.height)}-${colorScheme}`,
          );
          await docsScreenshot(
            page,
            'report',
            `${String(viewport.width)}x${String(viewport.height)}-${colorScheme}`,
            true,
          );
          expect((await axeViolations(page)).violations).toEqual([]);
          await context.close();
        });
      }
    }

    it('prints on A4 in a few pages, in light colours', async () => {
      const context = await browser.newContext({ colorScheme: 'dark' });
      const page = await context.newPage();
      await page.setContent(html);
      await page.emulateMedia({ media: 'print' });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(255, 255, 255)');
      const pdf = await page.pdf({ format: 'A4' });
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      expect(pages).toBeGreaterThan(0);
      expect(pages).toBeLessThanOrEqual(10);
      await context.close();
    });
  },
);

/** The plan ids the fixtures' assessments name (rule, strategy, precondition ids): none may show as text. */
const PLAN_IDS = [
  ...new Set(
    readdirSync(path.join(REPO_ROOT, 'fixtures/assessments'))
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) =>
        planIdsOf(JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures/assessments', file), 'utf8'))),
      ),
  ),
];

/** The combinations docs/screenshots shows: a laptop in light, the smallest window in dark. */
const DOCS_COMBINATIONS = ['1280x800-light', '800x600-dark'];

/**
 * `npm run screenshots` sets ENCPLAN_DOCS_SCREENSHOTS: the first screen of each wizard step (what a person sees
 * in a window of that size) and the whole HTML report are then also written to docs/screenshots.
 */
async function docsScreenshot(
  page: Page,
  name: string,
  combination: string,
  fullPage = false,
): Promise<void> {
  if (process.env.ENCPLAN_DOCS_SCREENSHOTS !== undefined && DOCS_COMBINATIONS.includes(combination)) {
    await page.screenshot({
      path: path.join(REPO_ROOT, 'docs/screenshots', `${name}-${combination}.png`),
      fullPage,
    });
  }
}

describe.skipIf(chromiumMissing !== null)('the wizard, light and dark, 1280×800 and 800×600', () => {
  const wizard = useWizardInChromium();

  it('knows the plan ids it must not show', () => {
    expect(PLAN_IDS.length).toBeGreaterThan(5);
  });

  for (const viewport of VIEWPORTS) {
    for (const colorScheme of SCHEMES) {
      const size = `${String(viewport.width)}x${String(viewport.height)}`;
      it(`${size} ${colorScheme}: every step in words (no option, code, id or path), updates in place, strategy and answer first, fits, axe clean`, async () => {
        const { context, page } = await wizard.open({ viewport, colorScheme });
        // Step 1: real disks first, loop devices folded after them; the saved sources are named.
        await page.getByRole('radio', { name: /\/dev\/vda/ }).waitFor();
        await expect(page.locator('fieldset.devices > ul .device-model').first().textContent()).resolves.toBe(
          'Virtual disk',
        );
        await expect(page.locator('details.device-group').getAttribute('open')).resolves.toBeNull();
        await expect(page.locator('fieldset.devices legend').textContent()).resolves.toMatch(
          /^From \d saved assessments/,
        );
        await expectNoCodes(page, PLAN_IDS);
        await screenshot(page, `wizard-${size}-${colorScheme}-1-drive`);
        await docsScreenshot(page, 'wizard-1-drive', `${size}-${colorScheme}`);
        await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
        await page.getByRole('button', { name: 'Check this drive' }).click();
        await page.getByRole('heading', { name: /^Drive health/ }).waitFor();
        await expectNoCodes(page, PLAN_IDS);
        await screenshot(page, `wizard-${size}-${colorScheme}-2-health`);
        await docsScreenshot(page, 'wizard-2-health', `${size}-${colorScheme}`);
        await page.getByRole('button', { name: 'Next' }).click();
        // Before it starts, the step says where it writes, how much, and that it was removed afterwards.
        await expect(page.locator('#benchmark-footprint').textContent()).resolves.toMatch(
          /^Nothing is written on this machine: this replays a saved assessment\. Its run wrote in a new private folder in \/.* with scratch files of up to [\d.]+ [MG]iB.*removed them afterwards/,
        );
        const choicesOverflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(choicesOverflow).toBeLessThanOrEqual(0);
        expect((await axeViolations(page)).violations).toEqual([]);
        await expectNoCodes(page, PLAN_IDS);
        await screenshot(page, `wizard-${size}-${colorScheme}-3-benchmark-choices`);
        await page.getByRole('button', { name: 'Start benchmark' }).click();
        // In place: the Cancel button a person is pressing is the same node across progress updates.
        const cancel = await page.getByRole('button', { name: 'Cancel' }).elementHandle();
        const before = await page.getByRole('progressbar').getAttribute('value');
        await page.waitForFunction(
          (value) => document.querySelector('progress')?.getAttribute('value') !== value,
          before,
        );
        await expect(cancel?.evaluate((node) => node.isConnected)).resolves.toBe(true);
        await page.locator('#benchmark-grid td.result:not(.pending):not(.running)').nth(3).waitFor();
        await expectNoCodes(page, PLAN_IDS);
        await screenshot(page, `wizard-${size}-${colorScheme}-3-benchmark-running`);
        await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 20_000 });
        await expectNoCodes(page, PLAN_IDS);
        await screenshot(page, `wizard-${size}-${colorScheme}-3-benchmark-done`);
        await docsScreenshot(page, 'wizard-3-benchmark', `${size}-${colorScheme}`);
        await page.getByRole('button', { name: 'See the plan' }).click();
        // The strategy first, in words, then the answer: verdict, fix-first list and the plan's decisions.
        const strategy = page.locator('section.strategy');
        await strategy.waitFor();
        expect((await strategy.boundingBox())?.y).toBeLessThan(viewport.height / 2);
        const answer = page.locator('section.answer');
        await expect(answer.getByRole('heading', { level: 2 }).textContent()).resolves.toMatch(
          /^(go|fix first|caution|stop|reinstall) (Go ahead|Encrypt|Back up first|Reinstall encrypted)/,
        );
        await expect(answer.locator('dl.decisions dt').first().textContent()).resolves.toBe('Encryption');
        expect((await answer.boundingBox())?.y).toBeLessThan(viewport.height);
        // Nothing runs wider than the window (no raw JSON, no fixed-width chart forcing a scrollbar).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: path.join(ARTIFACTS, `wizard-${size}-${colorScheme}-4-plan-first-screen.png`),
        });
        await docsScreenshot(page, 'wizard-4-plan', `${size}-${colorScheme}`);
        await screenshot(page, `wizard-${size}-${colorScheme}-4-plan-folded`);
        // Folded parts are text too: open every "Why" card before scanning.
        for (const details of await page.locator('details').all()) {
          await details.evaluate((node) => {
            (node as HTMLDetailsElement).open = true;
          });
        }
        await expectNoCodes(page, PLAN_IDS);
        await screenshotAxeClean(page, `wizard-${size}-${colorScheme}-4-plan`);
        await page.getByRole('button', { name: 'Next' }).click();
        await expectNoCodes(page, PLAN_IDS);
        await screenshotAxeClean(page, `wizard-${size}-${colorScheme}-5-export`);
        await docsScreenshot(page, 'wizard-5-export', `${size}-${colorScheme}`);
        await context.close();
      });
    }
  }
});
