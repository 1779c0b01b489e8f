import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { assessmentDocument, planFromAssessment, renderHtmlReport, toReportView } from '@encplan/core';
import { loadChartRenderer } from '@encplan/core/node';
import { REPO_ROOT } from '../support/fake-tools.js';
import { ARTIFACTS, chromiumMissing, SCHEMES, useWizardInChromium } from './chromium.js';
import { noteSkip } from '../support/skip-reasons.js';

noteSkip(import.meta.url, chromiumMissing);

/** The texts a reader sees in a chart (its <text> elements), in document order. */
/** The plan's throughput chart: measured encrypted runs where there are any, else predicted ones. */
const THROUGHPUT = /^(Measured throughput per profile|Plain throughput \(measured\) vs encrypted)/;

function chartTexts(page: Page, name: RegExp): Promise<string[]> {
  return page
    .getByRole('img', { name })
    .first()
    .evaluate((svg) => Array.from(svg.querySelectorAll('text'), (text) => text.textContent ?? ''));
}

/** The HTML report the CLI writes (Node, linkedom) for the disk the fake wizard serves as /dev/vda. */
async function cliReport(): Promise<string> {
  const envelope = assessmentDocument.envelope.parse(
    JSON.parse(
      readFileSync(
        path.join(REPO_ROOT, 'fixtures/assessments/virtio-system-disk-whole-ext4-debian12.json'),
        'utf8',
      ),
    ),
  );
  // The wizard plans every finished assessment again with this version's rules (as `assess --bundle` does):
  // so does this report, or the two would show plans of two versions.
  if (envelope.result === null) {
    throw new Error('the fixture has no result');
  }
  const replanned = { ...envelope, result: { ...envelope.result, plan: planFromAssessment(envelope) } };
  return renderHtmlReport(toReportView(replanned), await loadChartRenderer());
}

// The wizard draws its charts with the reports' chart module (core's report/chart-svg.ts, Observable Plot) in
// the page itself, under the renderer's strict Content-Security-Policy; the CLI draws the same in Node.
describe.skipIf(chromiumMissing !== null)('the charts of the wizard and the HTML report in Chromium', () => {
  const wizard = useWizardInChromium();

  for (const colorScheme of SCHEMES) {
    it(`${colorScheme}: the live and the plan charts carry MiB/s and MB/s axes, a log scale, no CSP violation`, async () => {
      const errors: string[] = [];
      const { context, page } = await wizard.open(
        { viewport: { width: 1100, height: 900 }, colorScheme },
        (fresh) => {
          fresh.on('pageerror', (error) => errors.push(error.message));
          fresh.on('console', (message) => {
            if (message.type() === 'error') {
              errors.push(message.text());
            }
          });
        },
      );
      await page.getByRole('radio', { name: /\/dev\/vda/ }).check();
      await page.getByRole('button', { name: 'Check this drive' }).click();
      await page.getByRole('button', { name: 'Next' }).and(page.locator(':enabled')).click();
      await page.getByRole('button', { name: 'Start benchmark' }).click();
      await page.getByRole('button', { name: 'See the plan' }).waitFor({ timeout: 20_000 });
      // fscrypt's 4K writes here beat the plain drive beyond both runs' spread (the page cache served them): the
      // grid stars them and says why, as the plan leaves them out (issue 24 item 3).
      const starred = await page.locator('#benchmark-grid td.absorbed').allTextContents();
      expect(starred.length).toBeGreaterThan(0);
      expect(starred.every((text) => text.endsWith('*'))).toBe(true);
      await expect(page.locator('#benchmark-grid tfoot').textContent()).resolves.toMatch(
        /page cache served these/,
      );
      // The live chart applies the same rule: those figures are not drawn as encryption speed, and the words
      // under it name each one with the reason.
      const leftOut = (await page.locator('#live-left-out').textContent()) ?? '';
      expect(leftOut).toMatch(/^Not drawn: .+\. Faster than the plain drive: the page cache served these/);
      const notDrawn = [...leftOut.matchAll(/(?:Not drawn: |, )([^,]+?) · ([^,(]+?) \(/g)].map(
        ([, profile, variant]) => `${profile ?? ''}, ${variant ?? ''}:`,
      );
      expect(notDrawn).toHaveLength(starred.length);
      const bars = await page
        .getByRole('img', { name: /^Measured so far/ })
        .evaluate((svg) =>
          Array.from(svg.querySelectorAll('rect title'), (title) => title.textContent ?? ''),
        );
      expect(bars.length).toBeGreaterThan(0);
      expect(bars.filter((bar) => notDrawn.some((label) => bar.startsWith(label)))).toEqual([]);
      const live = await chartTexts(page, /^Measured so far/);
      expect(live).toContain('MB/s (decimal, as CrystalDiskMark shows)');
      expect(live.some((text) => /^[\d,.]+ MiB\/s · [\d,.]+ MB\/s$/.test(text))).toBe(true);
      await page
        .locator('figure')
        .filter({ has: page.getByRole('img', { name: /^Measured so far/ }) })
        .screenshot({ path: path.join(ARTIFACTS, `wizard-live-chart-${colorScheme}.png`) });

      await page.getByRole('button', { name: 'See the plan' }).click();
      const throughput = page.getByRole('img', { name: THROUGHPUT });
      await throughput.waitFor();
      const texts = await chartTexts(page, THROUGHPUT);
      // This disk's profiles run from tens to thousands of MiB/s: a log scale, a tick per decade.
      expect(texts).toEqual(
        expect.arrayContaining([
          'MiB/s, logarithmic scale',
          'MB/s (decimal, as CrystalDiskMark shows)',
          '1,000',
        ]),
      );
      expect(texts.filter((text) => /^[\d,.]+ MiB\/s · [\d,.]+ MB\/s$/.test(text)).length).toBeGreaterThan(4);
      await expect(throughput.locator('desc').textContent()).resolves.toMatch(/^Horizontal bars in MiB\/s/);
      // The page's stylesheet themes the bars: the first series is the light or the dark theme's blue.
      const fill = await throughput
        .locator('.series-0')
        .first()
        .evaluate((bars) => getComputedStyle(bars).fill);
      expect(fill).toBe(colorScheme === 'dark' ? 'rgb(108, 180, 240)' : 'rgb(11, 95, 165)');
      // Nothing the strict CSP would refuse (it would show as a console error), nothing wider than the window.
      expect(await page.locator('.chart svg style').count()).toBe(0);
      expect(errors).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await throughput.screenshot({ path: path.join(ARTIFACTS, `wizard-chart-${colorScheme}.png`) });

      // The same chart, word for word, in the HTML report the CLI writes for this disk.
      const report = await context.newPage();
      await report.setContent(await cliReport());
      expect(await chartTexts(report, THROUGHPUT)).toEqual(texts);
      await report
        .locator('figure')
        .filter({ has: report.getByRole('img', { name: THROUGHPUT }) })
        .first()
        .screenshot({ path: path.join(ARTIFACTS, `report-chart-${colorScheme}.png`) });
      await context.close();
    });
  }
});
