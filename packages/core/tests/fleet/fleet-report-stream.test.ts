import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { fleetReportDocument } from '@encplan/core';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { renderFleetText } from '../../src/fleet/fleet-text.js';
import { fleetCsvHeader } from '../../src/fleet/fleet-csv.js';
import { writeFleetReport } from '../../src/node/fleet-report-stream.js';
import { fixture } from '../support/fixtures.js';

/*
 * The fleet report at any size (issue 26 item 6): N generated documents stream through writeFleetReport, and
 * the output is checked against the in-memory report of the same documents. The memory bound is checked by
 * structure: the writer pulls one document at a time and its rows are out before the next many are read.
 */

const TEMPLATES = [
  fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'),
  fixture('assessments/virtio-system-disk-whole-ext4-debian12.json'),
  fixture('assessments/error-device-not-found.json'),
];
/** Machine i's document: one of three real assessments; every 60th machine (a Linux disk) is listed twice. */
function* generated(count: number): Generator<FleetDocument> {
  for (let index = 0; index < count; index += 1) {
    const json = JSON.parse(TEMPLATES[index % TEMPLATES.length] ?? '') as unknown;
    yield { source: `m${String(index)}/disk.json`, machine: `m${String(index)}`, json };
    if (index % 60 === 0) {
      yield { source: `m${String(index)}/again.json`, machine: `m${String(index)}`, json };
    }
  }
}

/** A Writable keeping what it was given, and how many JSON rows (lines starting `{"source"`) so far. */
class Collector extends Writable {
  text = '';
  rows = 0;
  override _write(chunk: Buffer | string, _encoding: string, done: () => void) {
    const piece = chunk.toString();
    this.text += piece;
    this.rows += piece.split('\n{"source"').length - 1;
    done();
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-fleet-stream-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('writeFleetReport', () => {
  const count = 600;
  const generatedAt = new Date('2026-11-26T12:00:00.000Z');

  it('writes the same report as the in-memory one, as JSON, CSV, text and HTML', async () => {
    const expected = buildFleetReport([...generated(count)]);
    const json = new Collector();
    const csv = new Collector();
    const text = new Collector();
    const htmlFile = path.join(scratch, 'fleet.html');
    const spoolParent = path.join(scratch, 'spool');
    mkdirSync(spoolParent);
    const totals = await writeFleetReport(
      generated(count),
      { json, csv, text, htmlFile },
      { generatedAt, spoolParent },
    );

    const envelope = fleetReportDocument.envelope.parse(JSON.parse(json.text));
    expect(envelope).toMatchObject({ schema: 'encplan.fleet-report', schemaVersion: [1, 4], status: 'ok' });
    const result = envelope.result;
    expect(result?.summary).toEqual(expected.summary);
    expect(result?.summary).toMatchObject({
      documents: count + count / 60,
      machines: count,
      disks: count,
      duplicateDisks: count / 60,
      notAssessed: count / 3,
    });
    expect(result?.issueCounts).toEqual(expected.issueCounts);
    expect(result?.versions).toEqual(expected.versions);
    expect(totals.summary).toEqual(expected.summary);
    // The same rows, in the order read rather than sorted.
    const key = (row: { source: string }) => row.source;
    expect(result?.rows.map(key).sort()).toEqual(expected.rows.map(key).sort());
    expect(result?.rows[0]?.source).toBe('m0/disk.json');

    const csvLines = csv.text.split('\r\n').filter((line) => line !== '');
    expect(`${csvLines[0] ?? ''}\r\n`).toBe(fleetCsvHeader());
    expect(csvLines).toHaveLength(1 + count + count / 60);

    // Text: the same groups and lines as the in-memory rendering, each group's rows in the order read.
    const streamedLines = text.text.trimEnd().split('\n');
    const memoryLines = renderFleetText(expected).split('\n');
    expect(streamedLines.slice(0, 8)).toEqual(memoryLines.slice(0, 8));
    expect([...streamedLines].sort()).toEqual([...memoryLines].sort());

    const html = readFileSync(htmlFile, 'utf8');
    expect(html.match(/<tr><td>m\d+/g)).toHaveLength(count + count / 60);
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('@media print');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    // The spool of rows is gone.
    expect(readdirSync(spoolParent)).toEqual([]);
  });

  it('streams: each document is pulled after the rows of all but the last few were written out', async () => {
    const json = new Collector();
    let pulled = 0;
    let largestLag = 0;
    function* documents() {
      for (const document of generated(count)) {
        // Rows written so far against documents pulled so far: a reader that collected every document first
        // (or a writer that held every row until the end) would lag by the whole fleet.
        largestLag = Math.max(largestLag, pulled - json.rows);
        pulled += 1;
        yield document;
      }
    }
    await writeFleetReport(documents(), { json }, { generatedAt });
    expect(json.rows).toBe(count + count / 60);
    // One 64 KiB chunk holds a few dozen rows of these documents.
    expect(largestLag).toBeLessThan(100);
    expect(largestLag).toBeGreaterThan(0);
  });
});
