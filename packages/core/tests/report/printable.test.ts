import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssessmentEnvelope } from '../../src/contract/assessment.js';
import { buildFleetReport } from '../../src/fleet/fleet-report.js';
import { renderFleetCsv } from '../../src/fleet/fleet-csv.js';
import { renderFleetHtml } from '../../src/fleet/fleet-html.js';
import { toPlanDocumentView } from '../../src/report/document-views.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import { escapeControlCharacters, printableData } from '../../src/report/printable.js';
import { renderCommandsScript, toReportView } from '../../src/report/report-view.js';
import { renderDocumentText, renderTextReport } from '../../src/report/text-report.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

// Issue 25 item 8: a control character in a string from a tool (a carriage return in lsblk's MODEL) is shown
// escaped in every view, never acted on. Captured assessment (fixtures/assessments/PROVENANCE.md) with the
// tool strings replaced by arbitrary text.
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const FIXTURE = JSON.parse(
  readFileSync(path.join(ROOT, 'fixtures/assessments/loop-gpt-ext4-78pct-bundle.json'), 'utf8'),
) as AssessmentEnvelope;

/** Fields whose text comes from lsblk, blkid, sysfs and /proc/cpuinfo. */
const TOOL_FIELDS = /^(model|vendor|serial|name|label|mapperName|cpuModel|cpuVendor)$/;

function withToolText(value: unknown, text: string, key: string | null = null): unknown {
  if (key !== null && TOOL_FIELDS.test(key) && (value === null || typeof value === 'string')) {
    return text;
  }
  if (Array.isArray(value)) {
    return value.map((item) => withToolText(item, text));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withToolText(v, text, k)]));
  }
  return value;
}

// eslint-disable-next-line no-control-regex -- the characters the views must never contain raw
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const controlOrText = fc.oneof(
  fc.constantFrom(
    '\r',
    '\n',
    '\t',
    '\u001b[2J',
    '\u0000',
    '\u007f',
    '\u0085',
    '\u009b',
    '\u202e',
    '\u2066',
    '\b',
  ),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const toolText = fc.array(controlOrText, { maxLength: 6 }).map((parts) => `m${parts.join('')}`);

/** Every view of one assessment, as text. */
function views(envelope: AssessmentEnvelope): Record<string, string> {
  const view = toReportView(envelope, { includeDestructive: true });
  const fleet = buildFleetReport([{ source: 'a.json', machine: 'host', json: envelope }]);
  const plan = envelope.result?.plan;
  return {
    text: renderTextReport(view, { verbose: true, width: null }),
    html: renderHtmlReport(view, renderChart),
    script: renderCommandsScript(view),
    plan: plan === undefined || plan === null ? '' : renderDocumentText(toPlanDocumentView(plan)),
    fleetHtml: renderFleetHtml(fleet, '2026-01-01T00:00:00Z', renderChart),
    // RFC 4180 ends CSV records with CRLF: encplan's own line breaks, not tool data.
    fleetCsv: renderFleetCsv(fleet).replaceAll('\r\n', '\n'),
  };
}

const lineCount = (text: string) => text.split('\n').length;

describe('control characters from tools in every view (issue 25 item 8)', () => {
  it('escapes C0, DEL, C1 and bidirectional controls; keeps other text', () => {
    expect(escapeControlCharacters('Samsung\rSSD\n\u001b[31m\u0085\u202e')).toBe(
      'Samsung\\u000dSSD\\u000a\\u001b[31m\\u0085\\u202e',
    );
    expect(escapeControlCharacters('Größe 1 TB — ok')).toBe('Größe 1 TB — ok');
    expect(printableData({ stdinText: 'crypttab\n', model: 'a\rb' })).toEqual({
      stdinText: 'crypttab\n',
      model: 'a\\u000db',
    });
  });

  it('no view contains a raw control character from tool data, nor a line break it added', () => {
    const baseline = views(withToolText(FIXTURE, 'model') as AssessmentEnvelope);
    fc.assert(
      fc.property(toolText, (text) => {
        const injected = views(withToolText(FIXTURE, text) as AssessmentEnvelope);
        // Same text with its control characters replaced: the views must break lines exactly where it does.
        const plain = views(
          withToolText(
            FIXTURE,
            text.replace(new RegExp(CONTROL, 'g'), '').replaceAll('\n', ''),
          ) as AssessmentEnvelope,
        );
        for (const [name, output] of Object.entries(injected)) {
          expect(output, name).not.toMatch(CONTROL);
          expect(lineCount(output), name).toBe(lineCount(plain[name] ?? ''));
        }
      }),
      { numRuns: 40 },
    );
    expect(baseline.text).toContain('model');
  });

  it('copies only what it escapes: the input is untouched, parts with nothing to escape are returned as they are', () => {
    const clean = { name: 'disk', sizes: [1, 2], nested: { label: 'root' }, at: new Date(0) };
    expect(printableData(clean)).toBe(clean);
    const dirty = { name: 'disk', list: ['ok', 'a\u001b[2J'], nested: { label: 'root' }, other: ['x'] };
    const shown = printableData(dirty);
    expect(shown).toEqual({
      name: 'disk',
      list: ['ok', 'a\\u001b[2J'],
      nested: { label: 'root' },
      other: ['x'],
    });
    expect(dirty.list[1]).toBe('a\u001b[2J');
    expect(shown).not.toBe(dirty);
    expect(shown.list).not.toBe(dirty.list);
    expect(shown.nested).toBe(dirty.nested);
    expect(shown.other).toBe(dirty.other);
  });
});
