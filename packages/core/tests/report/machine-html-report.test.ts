import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { renderMachineHtmlReport } from '../../src/report/machine-report.js';
import { DESTROYS_DATA_MARKER } from '../../src/report/command-script.js';
import { assessAllBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

const clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };

async function machinePage(includeDestructive = false): Promise<string> {
  const bundle = parseBundle(
    JSON.parse(fixture('bundles/machine-all-loops-and-virtio-node-missing-debian12/bundle.json')),
  );
  return renderMachineHtmlReport(await assessAllBundle(bundle, clock, {}), renderChart, {
    includeDestructive,
  });
}

describe('the HTML report of assess --all', () => {
  it('leads with one summary row per disk, each linking to that disk’s own report', async () => {
    const html = await machinePage();
    const summary = html.slice(html.indexOf('<table id="summary">'), html.indexOf('</table>'));
    expect([...summary.matchAll(/<a href="#(disk-\d+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['disk-1', '/dev/loop0'],
      ['disk-2', '/dev/loop1'],
      ['disk-3', '/dev/loop2'],
      ['disk-4', '/dev/vda'],
    ]);
    // The disk that could not be assessed says why in its own section.
    expect(html).toMatch(/<section id="disk-3"[^>]*>.*Could not be assessed: [A-Z_]+: \/dev\/loop2 is gone/s);
  });

  it('keeps every id unique and every in-page link pointing at one', async () => {
    const html = await machinePage();
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    const targets = [...html.matchAll(/ href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(20);
    for (const target of targets) {
      expect(ids).toContain(target);
    }
    for (const labelled of html.matchAll(/ aria-labelledby="([^"]+)"/g)) {
      expect(ids).toContain(labelled[1]);
    }
  });

  it('puts each disk’s headings one level under the disk’s title', async () => {
    const html = await machinePage();
    const disk = html.slice(html.indexOf('<section id="disk-1"'), html.indexOf('<section id="disk-2"'));
    expect(disk).toMatch(/^<section id="disk-1" aria-labelledby="disk-1-title"><h2 id="disk-1-title">/);
    expect(disk.match(/<h2/g)?.length).toBe(1);
    expect(disk).toContain('<h3 id="disk-1-commands">Commands</h3>');
    expect(disk).not.toMatch(/<\/h2>.*<\/h2>/s);
  });

  it('marks data-destroying commands and comments them out unless --destructive', async () => {
    const safe = await machinePage();
    expect(safe).toContain(`<strong class="destroys"># ${DESTROYS_DATA_MARKER}</strong>`);
    expect(safe).not.toMatch(/^cryptsetup reencrypt /m);
    expect(await machinePage(true)).toMatch(/^cryptsetup reencrypt /m);
  });
});
