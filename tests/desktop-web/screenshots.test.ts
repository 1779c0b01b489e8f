import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentDocument, renderHtmlReport, toReportView } from '@encplan/core';
import { loadChartRenderer } from '@encplan/core/node';
import { REPO_ROOT } from '../support/fake-tools.js';
import {
  ARTIFACTS,
  axeViolations,
  chromiumMissing,
  launchChromium,
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

describe.skipIf(chromiumMissing !== null)('the wizard, light and dark, 1280×800 and 800×600', () => {
  const wizard = useWizardInChromium();

  for (const viewport of VIEWPORTS) {
    for (const colorScheme of SCHEMES) {
      const size = `${String(viewport.width)}x${String(viewport.height)}`;
      it(`${size} ${colorScheme}: updates in place, leads the plan with the answer, fits, axe clean`, async () => {
        const { context, page } = await wizard.open({ viewport, colorScheme });
        await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
        await page.getByRole('button', { name: 'Check this drive' }).click();
        await page.getByRole('heading', { name: /^Drive health/ }).waitFor();
        await screenshot(page, `wizard-${size}-${colorScheme}-2-health`);
        await page.getByRole('button', { name: 'Next' }).click();
        // Before it starts, the step says where it writes, how much, and that it is removed afterwards.
        await expect(page.locator('#benchmark-footprint').textContent()).resolves.toMatch(
          /^Where it writes: a new private folder in \/.* holding scratch files of up to [\d.]+ [MG]iB.*removed afterwards/,
        );
        const choicesOverflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(choicesOverflow).toBeLessThanOrEqual(0);
        expect((await axeViolations(page)).violations).toEqual([]);
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
        await screenshot(page, `wizard-${size}-${colorScheme}-3-benchmark-running`);
        await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 20_000 });
        await page.getByRole('button', { name: 'See the plan' }).click();
        // The answer first: verdict, fix-first list and the plan's decisions, on the first screen.
        const answer = page.locator('section.answer');
        await answer.waitFor();
        await expect(answer.getByRole('heading', { level: 2 }).textContent()).resolves.toMatch(
          /^(go|fix first|caution|stop) (Go ahead|Encrypt|Back up first)/,
        );
        await expect(answer.locator('dl.decisions dt').first().textContent()).resolves.toBe('Encryption');
        expect((await answer.boundingBox())?.y).toBeLessThan(viewport.height / 2);
        // Nothing runs wider than the window (no raw JSON, no fixed-width chart forcing a scrollbar).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: path.join(ARTIFACTS, `wizard-${size}-${colorScheme}-4-plan-first-screen.png`),
        });
        await screenshotAxeClean(page, `wizard-${size}-${colorScheme}-4-plan`);
        await page.getByRole('button', { name: 'Next' }).click();
        await screenshotAxeClean(page, `wizard-${size}-${colorScheme}-5-export`);
        await context.close();
      });
    }
  }
});
