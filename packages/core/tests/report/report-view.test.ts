import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assessmentDocument,
  renderCommandsScript,
  renderDocumentText,
  renderHtmlReport,
  renderPlanCommandsScript,
  renderTextReport,
  toPlanDocumentView,
  toReportView,
  toReportViewFromJson,
} from '@encplan/core';
import { formatRecommendationValue } from '../../src/report/labels.js';
import { type AssessmentEnvelope } from '../../src/contract/assessment.js';
import { EVIDENCE_LABELS } from '../../src/report/labels.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

/** Real `encplan assess --json` outputs (fixtures/assessments/PROVENANCE.md). */
const FIXTURES = path.join(REPO_ROOT, 'fixtures/assessments');
const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
const load = (name: string): AssessmentEnvelope =>
  assessmentDocument.envelope.parse(readJson(`fixtures/assessments/${name}.json`));
const FIXTURE_NAMES = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''));

describe('toReportView (typed envelope)', () => {
  it('reads every real fixture, and never leaves a fact blank or generated from a field name', () => {
    expect(FIXTURE_NAMES.length).toBeGreaterThanOrEqual(4);
    for (const name of FIXTURE_NAMES) {
      const view = toReportView(load(name));
      const facts = [
        ...(view.device?.facts ?? []),
        ...view.sections.flatMap((section) => section.facts),
        ...view.recommendations.flatMap((item) => item.evidence),
      ];
      for (const fact of facts) {
        expect(fact.value, `${name}: ${fact.label}`).not.toBe('');
        expect(fact.value).not.toMatch(/^[{[]/);
        // "(ki b)", "Cpu.has aes": labels generated from field names.
        expect(fact.label).not.toMatch(/\(ki b\)|\.\w+ \w/);
      }
    }
  });

  it('labels every evidence fact the real plans cite', () => {
    const facts = FIXTURE_NAMES.flatMap(
      (name) =>
        load(name).result?.plan?.recommendations.flatMap((item) =>
          item.evidence.map((entry) => entry.fact),
        ) ?? [],
    );
    expect(facts.length).toBeGreaterThan(10);
    // Dotted names are typed fields: each has a written label; descriptive names ("fastest … (bytes/s)") are already prose.
    const unlabelled = [...new Set(facts)].filter(
      (fact) => /^[a-zA-Z]+\.[a-zA-Z]+$/.test(fact) && EVIDENCE_LABELS[fact] === undefined,
    );
    expect(unlabelled).toEqual([]);
  });

  it('shows the virtual system disk: unknown health, used whole, fio rows and the kernel findings', () => {
    const view = toReportView(load('virtio-system-disk-whole-ext4-debian12'));
    expect(view.device).toMatchObject({
      path: '/dev/vda',
      model: 'Virtual disk',
      size: '256.0 GiB',
      isSystemDisk: true,
    });
    const health = view.sections.find((section) => section.id === 'health')!;
    expect(health).toMatchObject({ tone: 'unknown', verdict: 'unknown' });
    expect(health.facts).toContainEqual({ label: 'Endurance used', value: 'unknown', source: 'smartctl' });
    expect(view.sections.find((section) => section.id === 'space')).toMatchObject({
      verdict: 'used whole',
      findings: [],
    });
    expect(view.charts[0]!.id).toBe('throughput');
    expect(view.charts[0]!.series).toEqual(['plain', 'fscrypt']);
    expect(view.charts[0]!.groups).toHaveLength(8);
    expect(view.benchmarkRows[0]!.source).toMatch(
      /^fio \(\w+(, O_DIRECT)?; median of \d+ runs?, spread \d+\.\d %\)$/,
    );
    expect(view.benchmarkRows.at(-1)).toMatchObject({ profile: 'all profiles', measured: 'not measured' });
    expect(renderChart(view.charts[0]!)).toContain('<svg');
  });

  it('shows predicted encrypted next to measured plain throughput, filled or unknown', () => {
    const envelope = load('virtio-system-disk-whole-ext4-debian12');
    const plan = envelope.result!.plan!;
    // Today's fixture: the plan did not read the measured I/O, so every prediction is unknown (said, not blank).
    const unknown = toReportView(envelope);
    expect(unknown.predictions.length).toBe(plan.predictedPerformance.length * 2);
    expect(unknown.predictions[0]).toMatchObject({
      profile: 'SEQ1M Q8T1 read',
      known: plan.predictedPerformance[0]!.predictedReadBytesPerSecond !== null,
    });
    // Filled predictions (what the plan gives once it reads the measured I/O).
    const filled: AssessmentEnvelope = {
      ...envelope,
      result: {
        ...envelope.result!,
        plan: {
          ...plan,
          predictedPerformance: plan.predictedPerformance.map((row) => ({
            ...row,
            plainReadBytesPerSecond: 992_034_816,
            predictedReadBytesPerSecond: 524_288_000,
            readLimitedBy: 'cipher' as const,
          })),
        },
      },
    };
    const view = toReportView(filled);
    expect(view.predictions[0]).toMatchObject({
      profile: 'SEQ1M Q8T1 read',
      measuredPlain: '946.1 MiB/s',
      predictedEncrypted: '500.0 MiB/s',
      limitedBy: 'the cipher',
      known: true,
    });
    for (const text of [renderTextReport(view, { verbose: true }), renderHtmlReport(view, renderChart)]) {
      expect(text).toMatch(/SEQ1M Q8T1 read.*946\.1 MiB\/s.*500\.0 MiB\/s/s);
    }
    // Measured plain comes from the assessment's own fio run when the plan has no number of its own.
    expect(unknown.predictions[0]).toMatchObject({ measuredPlain: '902.8 MiB/s' });
    expect(renderTextReport(unknown, { verbose: true })).toMatch(
      /Predicted encrypted throughput[\s\S]*SEQ1M Q8T1 read\s+902\.8 MiB\/s\s+unknown/,
    );
  });

  it('renders a typed recommendation value (the luks2-pbkdf object) as people read it', () => {
    expect(
      formatRecommendationValue({
        type: 'argon2id',
        memoryKiB: 1_048_576,
        parallel: 4,
        iterations: null,
        iterTimeMs: 2000,
      }),
    ).toBe('type argon2id, memory 1.0 GiB, threads 4, unlock time 2.0 s');
    const view = toReportView(load('loop-gpt-ext4-luks2-unallocated-debian12'));
    const pbkdf = view.recommendations.find((item) => item.ruleId === 'luks2-pbkdf');
    expect(pbkdf?.value).toMatch(/^type argon2id, memory /);
  });

  it('turns an error envelope and a document that is not an assessment into error views', () => {
    expect(toReportView(load('error-device-not-found')).error?.code).toBe('DEVICE_NOT_FOUND');
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const view = toReportViewFromJson(json);
        expect(view.error?.code).toBe('INVALID_ARGUMENT');
      }),
      { numRuns: 200 },
    );
  });
});

describe('destructive commands, from one fixture through the script, the HTML report, the text report and `encplan plan`', () => {
  const envelope = load('virtio-system-disk-whole-ext4-debian12');
  const ids = envelope.result!.plan!.commands.map((command) => `${command.id}:${command.risk}`);

  it('uses a fixture whose plan formats the disk', () => {
    expect(ids).toEqual([
      'partition-layout:destroys-data',
      'luks-format:destroys-data',
      'luks-open:changes-settings',
      'crypttab-entry:changes-settings',
    ]);
  });

  it('comments out every data-destroying command and everything after it unless --destructive', () => {
    const view = toReportView(envelope);
    expect(view.commands.map((command) => command.live)).toEqual([false, false, false, false]);
    const script = renderCommandsScript(view);
    const html = renderHtmlReport(view, renderChart);
    const text = renderTextReport(view, { verbose: true });
    // `encplan plan` on the same plan: the plan part of the same view model, the same script renderer.
    const planView = toPlanDocumentView(envelope.result!.plan!);
    const planText = renderDocumentText(planView);
    const planScript = renderPlanCommandsScript(planView.plan);
    for (const output of [script, html, text, planText, planScript]) {
      expect(output).toContain('# DESTROYS DATA');
      expect(output).toMatch(/# cryptsetup luksFormat --type luks2/);
      expect(output).toMatch(/# cryptsetup open --allow-discards/);
      expect(output).toMatch(/# sh -c/);
      expect(output).not.toMatch(/^\s*(sgdisk|cryptsetup|sh) /m);
    }
    expect(script).toContain(
      '# Depends on "partition-layout", which is commented out: commented out with it.',
    );
  });

  it('leaves them live with --destructive, still marked', () => {
    const view = toReportView(envelope, { includeDestructive: true });
    const script = renderCommandsScript(view);
    expect(view.commands.every((command) => command.live)).toBe(true);
    expect(script).toMatch(
      /# DESTROYS DATA: this line runs \(--destructive was given\)\.\n(# Asks for the passphrase on the terminal\.\n)?cryptsetup luksFormat/,
    );
    expect(script).toMatch(/^cryptsetup open /m);
    const planText = renderDocumentText(
      toPlanDocumentView(envelope.result!.plan!, { includeDestructive: true }),
    );
    expect(planText).toMatch(
      /# DESTROYS DATA: this line runs \(--destructive was given\)\.\n( {2}# Asks for the passphrase on the terminal\.\n)? {2}cryptsetup luksFormat/,
    );
    expect(renderHtmlReport(view, renderChart)).toMatch(
      /<strong class="destroys"># DESTROYS DATA: this line runs \(--destructive was given\)\.<\/strong>\n(# Asks for the passphrase on the terminal\.\n)?cryptsetup luksFormat/,
    );
  });
});

describe('renderHtmlReport', () => {
  it('is self-contained and escapes every text', () => {
    const envelope = load('loop-gpt-ext4-luks2-unallocated-debian12');
    const hostile: AssessmentEnvelope = {
      ...envelope,
      result: {
        ...envelope.result!,
        disk: { ...envelope.result!.disk!, model: '<script>alert(1)</script>' },
      },
    };
    const html = renderHtmlReport(toReportView(hostile), renderChart);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('the answer first, in every view', () => {
  const envelope = load('virtio-system-disk-whole-ext4-debian12');
  const view = toReportView(envelope);

  it("states the verdict, the fix-first list (once) and the plan's decisions", () => {
    expect(view.answer).toMatchObject({
      tone: 'attention',
      verdict: 'caution',
      headline: 'Encrypt /dev/vda with LUKS2 (cryptsetup), with care, after the one thing below',
    });
    expect(view.fixFirst).toHaveLength(1);
    expect(view.fixFirst[0]!.message).toMatch(/^The CPU has AES instructions but the kernel/);
    expect(view.decisions).toContainEqual({
      label: 'Cipher',
      value: 'aes-xts-plain64, 512-bit key (AES-256)',
    });
    expect(view.decisions).toContainEqual({ label: 'Spare area', value: 'none left unpartitioned' });
  });

  it('leads the HTML report with the answer, before any evidence, with dark and print styles', () => {
    const html = renderHtmlReport(view, renderChart);
    const answer = html.indexOf('id="answer"');
    expect(answer).toBeGreaterThan(0);
    for (const later of ['id="plan"', 'id="drive"', 'id="checks"', 'id="commands"']) {
      expect(html.indexOf(later)).toBeGreaterThan(answer);
    }
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('@media print');
    expect(html.match(/The CPU has AES instructions but/g)).toHaveLength(1);
    expect(html).toContain('generated 2026-');
    expect(html).not.toMatch(/generated \d{4}-\d\d-\d\dT/);
  });

  it('charts cipher speed, key derivation and predicted against measured throughput', () => {
    expect(view.charts.map((chart) => chart.id)).toEqual([
      'throughput',
      'predicted',
      'block-size',
      'ciphers',
      'kdf',
    ]);
    const ciphers = view.charts.find((chart) => chart.id === 'ciphers')!;
    expect(ciphers.groups.map((group) => group.label)).toContain('aes-xts 512-bit (OpenSSL)');
    // 6,073,823,232 B/s = 5792.4 MiB/s, one core (fixture: openssl speed aes-256-xts).
    expect(ciphers.groups.find((group) => group.label === 'aes-xts 512-bit (OpenSSL)')!.bars[0]).toEqual({
      series: 'encrypt, one core',
      value: 6_073_823_232 / 1_048_576,
    });
    const svg = renderChart(ciphers);
    expect(svg).toContain('5,792 MiB/s · 6,074 MB/s');
    expect(svg).toContain('fill="currentColor"');
    const predicted = view.charts.find((chart) => chart.id === 'predicted')!;
    expect(predicted.series).toEqual(['plain (measured)', 'encrypted (predicted)']);
  });

  it('charts throughput by block size from what was measured: without a sweep, the queue-depth-1 pair', () => {
    const chart = view.charts.find((entry) => entry.id === 'block-size')!;
    expect(chart.title).toContain('no block-size sweep was run');
    expect(chart.groups.map((group) => group.label)).toEqual([
      '4.0 KiB random read',
      '1.0 MiB sequential read',
      '4.0 KiB random write',
      '1.0 MiB sequential write',
    ]);
    const io = envelope.result!.ioBenchmark!;
    const median = (id: string): number =>
      io.plain.profiles.find((measurement) => measurement.profile.id === id)!.summary.medianBytesPerSecond /
      1_048_576;
    expect(chart.groups[0]!.bars[0]).toEqual({ series: io.plain.variant, value: median('rnd4k-q1t1-read') });
    expect(chart.groups[3]!.bars[0]).toEqual({ series: io.plain.variant, value: median('seq1m-q1t1-write') });
    expect(renderChart(chart)).toContain('4.0 KiB random read');
  });

  it('charts wear in percent of the rated endurance when the drive reports it', () => {
    const worn: AssessmentEnvelope = {
      ...envelope,
      result: {
        ...envelope.result!,
        health: { ...envelope.result!.health!, percentageUsed: 12, availableSparePercent: 100 },
      },
    };
    const wear = toReportView(worn).charts.find((chart) => chart.id === 'wear')!;
    expect(wear).toMatchObject({ unit: '%', max: 100 });
    expect(renderChart(wear)).toContain('>12 %<');
  });

  it('fits the text summary on one screen at 80 columns, and keeps the rest for --verbose', () => {
    const summary = renderTextReport(view, { width: 80 });
    const lines = summary.split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines.every((text) => text.length <= 80)).toBe(true);
    expect(lines[0]).toBe('encplan: /dev/vda · Virtual disk · 256.0 GiB virtio · system disk · partial');
    expect(lines[2]).toMatch(/^CAUTION {2}Encrypt \/dev\/vda/);
    expect(summary.match(/The CPU has AES instructions but/g)).toHaveLength(1);
    expect(summary).toContain('--verbose');
    expect(summary).not.toContain('luksFormat');
    const verbose = renderTextReport(view, { verbose: true, width: 120 });
    expect(verbose).toContain('luksFormat');
    expect(verbose.match(/The CPU has AES instructions but/g)).toHaveLength(1);
    // Prose wraps; a long command of the script continues after ` \` (still commented out), so it stays the
    // same command, and every line fits.
    expect(verbose).not.toMatch(/The CPU has AES.*before encrypting\./);
    const luksFormat = renderCommandsScript(view)
      .split('\n')
      .find((text) => text.includes('luksFormat'))!;
    expect(luksFormat.length).toBeGreaterThan(120);
    expect(verbose).not.toContain(`  ${luksFormat}`);
    expect(verbose.replaceAll(/ \\\n {2}# {5}/g, ' ')).toContain(`  ${luksFormat}`);
    expect(verbose.split('\n').filter((text) => text.length > 120)).toEqual([]);
  });

  it('paints lines only through the given painter, after wrapping', () => {
    const painted = renderTextReport(view, {
      width: 80,
      paint: (style, text) => `<${style}>${text}</${style}>`,
    });
    expect(painted).toMatch(/^<heading>encplan: \/dev\/vda/);
    expect(painted).toContain('<attention>CAUTION  Encrypt /dev/vda');
    expect(renderTextReport(view)).not.toContain('<');
  });
});
