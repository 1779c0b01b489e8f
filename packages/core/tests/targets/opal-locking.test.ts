import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { probeHealth } from '@encplan/core';
import { createNodeHost } from '@encplan/core/node';
import { assessSed, opalLockingLayers } from '../../src/analyses/sed.js';
import { parseSedutilScan } from '../../src/parsers/sedutil/scan.js';
import { buildPlan } from '../../src/plan/plan.js';
import { admitOpal, opalStateNotes } from '../../src/targets/luks2-opal/luks2-opal.js';
import {
  opalLockingOf,
  parseSedutilQuery,
  type OpalQuery,
} from '../../src/targets/luks2-opal/sedutil-query.js';
import { fakeToolsPerTest } from '../../../../tests/support/fake-tools.js';
import { emptyDisk, facts, machine } from '../rules/facts-builder.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures');
const read = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

const T710 = 'sedutil/query-nvme-opal2.15-crucial-t710-locking-enabled/stdout.txt';
const EVO960 = 'sedutil/query-nvme-opal2.0-samsung-960evo-locking-off/stdout.txt';
const LOCKED = 'sedutil/query-locked-mbr-shadow-sed-opal-unlocker-readme/stdout.txt';
const SCAN = 'sedutil/scan-sata-opal2-and-enterprise/stdout.txt';

const answered = (fixture: string): OpalQuery => ({
  discovery: parseSedutilQuery(read(fixture)),
  unknownReason: null,
});
const NOT_INSTALLED: OpalQuery = { discovery: null, unknownReason: 'sedutil-cli is not installed.' };

/** The sed section of the Opal 2 drive of a captured --scan, with the locking state of a --query answer. */
function opalSed(query: OpalQuery) {
  const entry = parseSedutilScan(read(SCAN)).find((line) => line.device === '/dev/nvme0') ?? null;
  return assessSed([], entry, query);
}

describe('the TCG locking state from sedutil-cli --query (real captures)', () => {
  it('reads locked, MBR shadowing on and shown (sed-opal-unlocker README, after a power cycle)', () => {
    expect(parseSedutilQuery(read(LOCKED))).toMatchObject({
      lockingSupported: true,
      lockingEnabled: true,
      locked: true,
      mbrEnabled: true,
      mbrDone: false,
      mediaEncrypt: true,
    });
  });

  it('reads MBR shadowing support from sedutil 1.49\'s "MBR shadowing Not Supported = N" (Crucial T710)', () => {
    expect(parseSedutilQuery(read(T710))).toMatchObject({
      lockingSupported: null,
      mbrShadowingSupported: true,
      mbrEnabled: false,
      mbrDone: false,
    });
    expect(parseSedutilQuery(read(EVO960))).toMatchObject({
      lockingSupported: true,
      mbrShadowingSupported: null,
    });
  });

  it("makes the sed section's opalLocking: ranges besides the global one from Single User Mode", () => {
    expect(opalSed(answered(T710)).opalLocking).toEqual({
      supported: null,
      enabled: true,
      locked: false,
      mediaEncrypt: true,
      mbrShadowing: { supported: true, enabled: false, done: false },
      rangesBesidesGlobal: 8,
      unknownReason: null,
    });
    expect(opalSed(answered(T710)).evidence).toContainEqual(
      expect.objectContaining({ origin: 'sedutil-cli', field: '--query' }),
    );
  });

  it('is null with the reason when nothing was read, never "no"', () => {
    const locking = opalLockingOf(NOT_INSTALLED);
    expect(locking).toEqual({
      supported: null,
      enabled: null,
      locked: null,
      mediaEncrypt: null,
      mbrShadowing: { supported: null, enabled: null, done: null },
      rangesBesidesGlobal: null,
      unknownReason: 'sedutil-cli is not installed.',
    });
  });
});

describe('the probe: sedutil-cli --query through the process runner, read-only', () => {
  const { runnerWith, fakes } = fakeToolsPerTest();

  it('without sedutil-cli: runs nothing of it, and the locking state is unknown with the reason', async () => {
    const host = createNodeHost(await runnerWith({}));
    const { facts: drive } = await probeHealth(host, { path: '/dev/nvme0', transport: 'nvme' });
    expect(drive.opalQuery).toEqual({
      discovery: null,
      unknownReason: expect.stringMatching(/sedutil-cli is not installed/),
    });
    expect(assessSed([], drive.sedutil, drive.opalQuery ?? null).opalLocking?.enabled).toBeNull();
  });

  it('asks --scan, then --query of the listed Opal drive, and nothing else', async () => {
    const host = createNodeHost(
      await runnerWith({
        'sedutil-cli': [
          { args: ['--scan'], stdoutFixture: `fixtures/${SCAN}` },
          { args: ['--query', '/dev/nvme0'], stdoutFixture: `fixtures/${EVO960}` },
        ],
      }),
    );
    const { facts: drive } = await probeHealth(host, { path: '/dev/nvme0', transport: 'nvme' });
    const calls = (await fakes().calls()).filter((call) => call.tool === 'sedutil-cli');
    expect(calls.map((call) => call.argv)).toEqual([['--scan'], ['--query', '/dev/nvme0']]);
    expect(drive.opalQuery?.discovery).toMatchObject({ opalVersion: '2.0', lockingEnabled: false });
  });

  it('does not query a drive --scan lists without a TCG subsystem, and says so', async () => {
    const host = createNodeHost(
      await runnerWith({ 'sedutil-cli': [{ args: ['--scan'], stdoutFixture: `fixtures/${SCAN}` }] }),
    );
    const { facts: drive } = await probeHealth(host, { path: '/dev/sda', transport: 'sata' });
    const calls = (await fakes().calls()).filter((call) => call.tool === 'sedutil-cli');
    expect(calls.map((call) => call.argv)).toEqual([['--scan']]);
    expect(drive.opalQuery?.unknownReason).toMatch(/no TCG security subsystem on \/dev\/sda/);
  });
});

describe('luks2-opal admission reads the locking state', () => {
  it('refuses a drive whose locking range is locked now', () => {
    expect(admitOpal({ sed: opalSed(answered(LOCKED)), behindUsbBridge: false })).toEqual({
      admitted: false,
      reason: expect.stringMatching(/locked now \(sedutil-cli --query: Locked = Y\)/),
    });
  });

  it('admits an activated Locking SP and says the admin password is needed, or a PSID revert that wipes', () => {
    const admission = admitOpal({ sed: opalSed(answered(T710)), behindUsbBridge: false });
    expect(admission).toMatchObject({ admitted: true });
    const notes = (admission.admitted ? (admission.notes ?? []) : []).join(' ');
    expect(notes).toMatch(/8 locking ranges besides the global range/);
    expect(notes).toMatch(/PSID revert .* erases everything/);
  });

  it('says a pre-boot image holds the admin password when MBR shadowing is on', () => {
    const notes = opalStateNotes({ ...parseSedutilQuery(read(LOCKED)), locked: false }).join(' ');
    expect(notes).toMatch(/MBR shadowing is on: a pre-boot authentication image/);
  });

  it('admits a confirmed Opal 2 drive whose locking state is unknown, saying so', () => {
    const admission = admitOpal({ sed: opalSed(NOT_INSTALLED), behindUsbBridge: false });
    expect(admission).toEqual({
      admitted: true,
      notes: [expect.stringMatching(/locking state is unknown \(sedutil-cli is not installed\.\)/)],
    });
  });

  it('states the notes with the plan, and gives no command for a locked drive', () => {
    const laptop = facts(
      { provenance: { platform: 'linux' } },
      machine({ aes: true, cores: 8, memoryBytes: 16 * 1024 ** 3, kernel: '6.8.0' }),
      emptyDisk(250_059_350_016, '/dev/nvme0n1'),
      { disk: { transport: 'nvme' } },
    );
    const active = buildPlan(facts(laptop, { sed: opalSed(answered(T710)) }), { targetTool: 'luks2-opal' });
    expect(
      active.findings.some(
        (finding) =>
          finding.ruleId === 'target-trade-offs' && /Locking SP is already activated/.test(finding.message),
      ),
    ).toBe(true);
    const locked = buildPlan(facts(laptop, { sed: opalSed(answered(LOCKED)) }), { targetTool: 'luks2-opal' });
    expect(locked.commands).toEqual([]);
  });
});

describe('the storage model: an opal-locking-range layer where the Locking SP is activated', () => {
  it('adds one hardware-encrypted layer on the disk, and none when locking is off or unknown', () => {
    const [layer, ...rest] = opalLockingLayers('/dev/nvme0n1', opalLockingOf(answered(T710)));
    expect(rest).toEqual([]);
    expect(layer).toMatchObject({
      kind: 'opal-locking-range',
      on: ['/dev/nvme0n1'],
      encryption: { kind: 'opal', hardware: true, protection: 'on', source: 'sedutil-cli --query' },
    });
    expect(opalLockingLayers('/dev/nvme0n1', opalLockingOf(answered(EVO960)))).toEqual([]);
    expect(opalLockingLayers('/dev/nvme0n1', opalLockingOf(NOT_INSTALLED))).toEqual([]);
  });
});
