import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentDocument, renderHtmlReport, toReportView } from '@encplan/core';
import { REPO_ROOT } from '../support/fake-tools.js';
import { axeViolations, chromiumMissing, launchChromium, screenshot } from './chromium.js';

/** The sizes the issue asks for: a laptop and the smallest window the wizard supports. */
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;
export const SCHEMES = ['light', 'dark'] as const;

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
    const html = renderHtmlReport(toReportView(envelope));

    beforeAll(async () => {
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
