import { describe, expect, it } from 'vitest';
import { assessBundle, assessmentDocument } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { linuxResultOf } from '../../src/contract/assessment.js';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import type { PlanOptions } from '../../src/rules/plan-options.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const loopBundle: Bundle = parseBundle(
  JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')),
);
const DEVICE = '/dev/loop0';

const answered = (tool: 'sedutil-cli', argv: string[], stdout: string): Bundle['captures'][number] => ({
  kind: 'command',
  tool,
  argv,
  stdinBytes: 0,
  output: { exitCode: 0, stdout, stderr: '', durationMs: 0 },
  error: null,
});

/**
 * The real loop-device bundle with sedutil-cli installed: its `--scan` is the captured SATA/NVMe scan with the
 * Opal 2 drive's line given the bundle's device name, and its `--query` is the captured Crucial T710 answer
 * (locking enabled, 8 ranges besides the global one). Only the device name is changed, so the health probe
 * asks `--query` of the bundle's disk and the sed section carries the T710's locking state.
 */
function withSedutil(
  bundle: Bundle,
  queryFixture = 'sedutil/query-nvme-opal2.15-crucial-t710-locking-enabled/stdout.txt',
): Bundle {
  const scan = fixture('sedutil/scan-sata-opal2-and-enterprise/stdout.txt').replace(
    '/dev/nvme0 ',
    `${DEVICE}  `,
  );
  const query = fixture(queryFixture);
  const captures = bundle.captures.map((capture) =>
    capture.kind === 'which-tool' && capture.tool === 'sedutil-cli'
      ? { ...capture, result: '/usr/sbin/sedutil-cli' }
      : capture,
  );
  return {
    ...bundle,
    captures: [
      ...captures,
      answered('sedutil-cli', ['--scan'], scan),
      answered('sedutil-cli', ['--query', DEVICE], query),
    ],
  };
}

async function linuxResult(bundle: Bundle, planOptions?: PlanOptions) {
  const envelope = assessmentDocument.envelope.parse(
    await assessBundle(bundle, clock, planOptions === undefined ? {} : { planOptions }),
  );
  const result = linuxResultOf(envelope.result!);
  expect(result).not.toBeNull();
  return result!;
}

describe('the Linux assessment hands the sed section to the storage model (use-cases/assess.ts)', () => {
  it("shows the drive's enabled OPAL locking as a layer of the storage model", async () => {
    const result = await linuxResult(withSedutil(loopBundle));
    // The sed section itself was read from the captures…
    expect(result.sed.opalLocking).toMatchObject({ enabled: true, rangesBesidesGlobal: 8 });
    // …and the storage model read it: the locking range is a layer on the disk, with hardware encryption.
    expect(result.storage).toBeTruthy();
    const layers = result.storage?.layers ?? [];
    expect(layers).toContainEqual(
      expect.objectContaining({
        id: `${DEVICE}#opal-locking`,
        kind: 'opal-locking-range',
        name: 'global range and up to 8 more',
        on: [DEVICE],
        encryption: expect.objectContaining({ kind: 'opal', hardware: true, source: 'sedutil-cli --query' }),
      }),
    );
  });

  it("shows the locking state in the report's self-encrypting drive section, not only in the JSON", async () => {
    const envelope = assessmentDocument.envelope.parse(await assessBundle(withSedutil(loopBundle), clock));
    const sed = toReportView(envelope).sections.find((section) => section.id === 'sed');
    expect(sed?.facts.slice(3).map((fact) => [fact.label, fact.value, fact.source])).toEqual([
      ['OPAL locking (Locking SP)', 'activated: locking ranges in use', 'sedutil-cli --query'],
      ['Locking ranges besides the global range', '8', 'sedutil-cli --query'],
      ['A locking range is locked now', 'no', 'sedutil-cli --query'],
      ['Drive encrypts its media (MediaEncrypt)', 'yes', 'sedutil-cli --query'],
      ['MBR shadowing (pre-boot image)', 'off', 'sedutil-cli --query'],
    ]);
    expect(renderTextReport(toReportView(envelope), { verbose: true, width: null })).toMatch(
      /Locking ranges besides the global range +8 +\[sedutil-cli --query\]/,
    );
    // Without sedutil-cli the report says why the state is unknown, never "not activated".
    const plain = assessmentDocument.envelope.parse(await assessBundle(loopBundle, clock));
    const unread = toReportView(plain).sections.find((section) => section.id === 'sed');
    expect(unread?.facts.slice(3)).toEqual([
      {
        label: 'OPAL locking (Locking SP)',
        value: expect.stringMatching(/^unknown: /) as string,
        source: 'sedutil-cli --query',
      },
    ]);
  });

  it('adds no locking layer when sedutil-cli was not there (the bundle as collected)', async () => {
    const result = await linuxResult(loopBundle);
    expect(result.sed.opalLocking?.enabled ?? null).toBeNull();
    expect(result.storage).toBeTruthy();
    const layers = result.storage?.layers ?? [];
    expect(layers.filter((layer) => layer.kind === 'opal-locking-range')).toEqual([]);
  });
});

describe('--target luks2-opal on the disk of the real loop bundle, which holds a mounted ext4 (issue 26 item 3)', () => {
  it('formats fresh and says why in OPAL terms: no reencryption, not even with a detached header', async () => {
    const result = await linuxResult(withSedutil(loopBundle), { targetTool: 'luks2-opal' });
    const strategy = result.plan?.strategy;
    expect(result.plan?.targetTool).toBe('luks2-opal');
    expect(strategy?.kind).toBe('fresh-format');
    expect(strategy?.reason).toContain('cryptsetup cannot reencrypt an OPAL device');
    // Not "in-place encryption for LUKS2 on Linux only" (LUKS2 on OPAL is LUKS2 on Linux), and no
    // `cryptsetup reencrypt --header` way out: cryptsetup reencrypts no OPAL device, detached header or not.
    expect(strategy?.reason).not.toMatch(/LUKS2 on Linux only|--header FILE/);
    expect(strategy?.preconditions).toContainEqual(
      expect.objectContaining({ id: 'filesystem-type', status: 'not-met' }),
    );
  });

  it('plain LUKS2 on the same disk encrypts in place; VeraCrypt formats, with no LUKS2 detached header offered', async () => {
    const luks2 = await linuxResult(withSedutil(loopBundle), { targetTool: 'luks2' });
    expect(luks2.plan?.strategy?.kind).toBe('in-place');
    const veracrypt = await linuxResult(withSedutil(loopBundle), { targetTool: 'veracrypt' });
    expect(veracrypt.plan?.strategy?.kind).toBe('fresh-format');
    // `cryptsetup reencrypt --encrypt --header` makes a LUKS2 volume: no way to a VeraCrypt one.
    expect(veracrypt.plan?.strategy?.reason).not.toContain('--header FILE');
  });
});

describe('the answer for a refused --target luks2-opal (issue 26 item 3: the trust policy as a user reads it)', () => {
  it('stops, with the refusal, when the drive has a locking range locked now (sed-opal-unlocker capture)', async () => {
    const locked = withSedutil(
      loopBundle,
      'sedutil/query-locked-mbr-shadow-sed-opal-unlocker-readme/stdout.txt',
    );
    const envelope = assessmentDocument.envelope.parse(
      await assessBundle(locked, clock, { planOptions: { targetTool: 'luks2-opal' } }),
    );
    expect(envelope.result?.plan?.commands).toEqual([]);
    // Before: "CAUTION Encrypt /dev/loop0 with LUKS2 on an OPAL locking range …, with care" with no command.
    expect(toReportView(envelope).answer).toMatchObject({
      tone: 'bad',
      verdict: 'stop',
      headline: 'Not with LUKS2 on OPAL: encplan gives no commands to encrypt /dev/loop0 with it',
      reason: expect.stringContaining('A locking range of the drive is locked now') as string,
    });
  });

  it('an admitted drive keeps the usual answer: encrypt, with the trade-offs to fix first', async () => {
    const envelope = assessmentDocument.envelope.parse(
      await assessBundle(withSedutil(loopBundle), clock, { planOptions: { targetTool: 'luks2-opal' } }),
    );
    expect(toReportView(envelope).answer?.headline).toMatch(
      /^Encrypt \/dev\/loop0 with LUKS2 on an OPAL locking range/,
    );
  });
});
