import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { renderMachineHtmlReport, renderMachineTextReport } from '../../src/report/machine-report.js';
import { assessAllBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

const clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };

async function machineEnvelope() {
  const bundle = parseBundle(
    JSON.parse(fixture('bundles/machine-all-loops-and-virtio-node-missing-debian12/bundle.json')),
  );
  return assessAllBundle(bundle, clock, {});
}

/** The lead rows (disk, verdict, answer) of the unwrapped text: before the first blank line after "Disk  Verdict". */
function leadRows(text: string): Map<string, { verdict: string; answer: string }> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^Disk {2,}Verdict {2,}Answer$/.test(line));
  const rows = new Map<string, { verdict: string; answer: string }>();
  for (const line of lines.slice(start + 1)) {
    const match = /^(\/dev\/\S+) {2,}(\S+) {2,}(.+)$/.exec(line);
    if (match === null) {
      break;
    }
    rows.set(match[1]!, { verdict: match[2]!, answer: match[3]! });
  }
  return rows;
}

/** Each disk's own report's answer line (verdict word, headline), from its section of the machine text. */
function ownAnswers(text: string): Map<string, { verdict: string; headline: string }> {
  const answers = new Map<string, { verdict: string; headline: string }>();
  for (const section of text.split(/^════ /m).slice(1)) {
    const device = section.slice(0, section.indexOf(' '));
    const answer = /^([A-Z][A-Z ]*?) {2}(\S.*)$/m.exec(section);
    if (answer !== null) {
      answers.set(device, { verdict: answer[1]!, headline: answer[2]! });
    }
  }
  return answers;
}

describe('the text report of assess --all', () => {
  it('leads with one line per disk: the verdict word and answer of the disk’s own report', async () => {
    const text = renderMachineTextReport(await machineEnvelope());
    const lead = leadRows(text);
    const own = ownAnswers(text);
    expect([...lead.keys()]).toEqual(['/dev/loop0', '/dev/loop1', '/dev/loop2', '/dev/vda']);
    expect(own.size).toBe(3);
    for (const [device, answer] of own) {
      expect(lead.get(device)?.verdict).toBe(answer.verdict);
      expect(lead.get(device)?.answer.startsWith(`${answer.headline}.`)).toBe(true);
    }
    expect(lead.get('/dev/loop0')?.verdict).toBe('CAUTION');
    expect(lead.get('/dev/loop2')).toMatchObject({ verdict: 'ERROR' });
    expect(lead.get('/dev/loop2')?.answer).toMatch(/^Could not be assessed: DEVICE_NOT_FOUND: /);
  });

  it('lists what the disk’s own report fixes first, never "nothing" beside a CAUTION', async () => {
    const text = renderMachineTextReport(await machineEnvelope());
    const lead = leadRows(text);
    expect(lead.get('/dev/loop0')?.answer).toContain('Fix first: The CPU has AES instructions');
    // blkid was denied there but the mount table says ext4: in place from a live system (issue 25 item 6).
    expect(lead.get('/dev/vda')?.answer).toContain('Fix first: Before the in-place path');
    expect(lead.get('/dev/vda')?.answer).toContain('(+1 more)');
    expect(text).not.toMatch(/\bnothing\b/);
  });

  it('says why a plan has no commands, beside the disk', async () => {
    const lead = leadRows(renderMachineTextReport(await machineEnvelope()));
    // A fresh format with no room for a partition: the plan's own note.
    expect(lead.get('/dev/loop1')?.answer).toContain(
      'No commands: No partition or format commands: the never-allocated space',
    );
    // In place from a live system: the commands exist (commented out until --destructive), so no such note.
    expect(lead.get('/dev/vda')?.answer).not.toContain('No commands');
    expect(lead.get('/dev/loop0')?.answer).not.toContain('No commands');
  });

  it('fits 80 columns with words whole: long answers wrap inside their column', async () => {
    const text = renderMachineTextReport(await machineEnvelope(), { text: { width: 80 } });
    const lines = text.split('\n');
    expect(lines.filter((line) => stringWidth(line) > 80)).toEqual([]);
    // Continuation lines of an answer start under the answer column.
    const vda = lines.findIndex((line) => line.startsWith('/dev/vda  '));
    const answerColumn = lines[vda]!.indexOf('Encrypt');
    expect(lines[vda + 1]!.slice(0, answerColumn).trim()).toBe('');
    // loop1's drive did not say whether it supports TRIM: the spare area is the conservative tier (issue 24 item 5).
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('never-allocated space before sector 116735');
  });

  it('gives the HTML report the same verdict words and answers', async () => {
    const envelope = await machineEnvelope();
    const lead = leadRows(renderMachineTextReport(envelope));
    const html = renderMachineHtmlReport(envelope, renderChart);
    const items = [
      ...html.matchAll(/<li><a href="#disk-\d+">([^<]+)<\/a> <strong>([^<]+)<\/strong> ([^<]+)<\/li>/g),
    ];
    expect(items.map((item) => [item[1], item[2]])).toEqual(
      [...lead].map(([device, row]) => [device, row.verdict]),
    );
    expect(items.find((item) => item[1] === '/dev/loop1')?.[3]).toContain('No commands: No partition');
  });
});
