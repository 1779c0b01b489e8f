import { describe, expect, it } from 'vitest';
import { toStrategyView } from '../../src/report/strategy-view.js';
import { assessmentDocument } from '../../src/contract/assessment.js';
import { planFromAssessment } from '../../src/use-cases/plan-from-assessment.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { fixture } from '../support/fixtures.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

function envelopeWithCurrentPlan(name: string) {
  const envelope = assessmentDocument.envelope.parse(JSON.parse(fixture(`assessments/${name}.json`)));
  if (envelope.result === null) {
    throw new Error('no result');
  }
  return { ...envelope, result: { ...envelope.result, plan: planFromAssessment(envelope) } };
}

describe('the strategy in every view', () => {
  it('names the strategy, then one line per precondition, the writes and the time', () => {
    const plan = planFromAssessment(JSON.parse(fixture('assessments/loop-gpt-ext4-78pct-bundle.json')));
    const view = toStrategyView(plan.strategy!);
    expect(view.title).toBe('Encrypt in place');
    expect(view.lines[0]).toMatch(/^\[confirm\] backup: /);
    expect(view.lines).toContain(
      'Time: Unmeasured: no sequential read and write speed of this disk in the assessment (run encplan assess --benchmark).',
    );
    expect(view.lines.some((line) => line.startsWith('Drive writes: 798.0 MiB'))).toBe(true);
  });

  it('the text and HTML reports show the strategy in the answer, before what to fix and the settings', () => {
    const view = toReportView(envelopeWithCurrentPlan('virtio-system-disk-whole-ext4-debian12'));
    for (const text of [renderTextReport(view), renderTextReport(view, { verbose: true })]) {
      expect(text.indexOf('Strategy: Reinstall encrypted (from a live/rescue system)')).toBeGreaterThan(-1);
      expect(text.indexOf('Strategy:')).toBeLessThan(text.indexOf('The plan'));
    }
    const html = renderHtmlReport(view, renderChart);
    const answer = html.slice(
      html.indexOf('id="answer"'),
      html.indexOf('</section>', html.indexOf('id="answer"')),
    );
    expect(answer).toContain('Reinstall encrypted');
    expect(answer.indexOf('Reinstall encrypted')).toBeLessThan(answer.indexOf('The plan'));
  });
});
