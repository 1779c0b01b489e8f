import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessSed } from '../../src/analyses/sed.js';
import { isEncplanError } from '../../src/errors.js';
import { parseNvmeIdCtrl } from '../../src/parsers/nvme/id-ctrl.js';
import { parseSedutilScan } from '../../src/parsers/sedutil/scan.js';
import { buildPlan, type Plan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { admitOpal, opalStateNotes, parseSedutilQuery } from '../../src/targets/luks2-opal/luks2-opal.js';
import { emptyDisk, facts, machine } from '../rules/facts-builder.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures');
const read = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

const T710 = read('sedutil/query-nvme-opal2.15-crucial-t710-locking-enabled/stdout.txt');
const EVO960 = read('sedutil/query-nvme-opal2.0-samsung-960evo-locking-off/stdout.txt');

/** The sed section encplan's analysis makes from a captured `sedutil-cli --scan`, for one of its devices. */
function sedFromScan(fixture: string, device: string): ReturnType<typeof assessSed> {
  const entry = parseSedutilScan(read(`sedutil/${fixture}/stdout.txt`)).find(
    (line) => line.device === device,
  );
  expect(entry, device).toBeDefined();
  return assessSed([], entry ?? null);
}

describe('sedutil-cli --query (TCG Level 0 Discovery) from real captures', () => {
  it('reads an Opal 2.15 drive whose Locking SP is active (Crucial T710, sedutil 1.49)', () => {
    expect(parseSedutilQuery(T710)).toEqual({
      opalVersion: '2.15',
      pyrite: false,
      lockingSupported: null,
      lockingEnabled: true,
      locked: false,
      mediaEncrypt: true,
      mbrShadowingSupported: true,
      mbrEnabled: false,
      mbrDone: false,
      lockingObjects: 9,
      lockingAdmins: 4,
      lockingUsers: 9,
      logicalBlockBytes: 512,
      alignmentBytes: 4096,
    });
  });

  it('reads the older layout with LockingSupported and no Single User Mode feature (Samsung 960 EVO)', () => {
    expect(parseSedutilQuery(EVO960)).toMatchObject({
      opalVersion: '2.0',
      lockingEnabled: false,
      mediaEncrypt: true,
      lockingObjects: null,
      lockingAdmins: 4,
    });
  });

  it('refuses output without a Level 0 Discovery listing (a --scan listing)', () => {
    const scan = read('sedutil/scan-sata-opal2-and-enterprise/stdout.txt');
    expect(() => parseSedutilQuery(scan)).toThrow(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
  });

  it('never crashes on arbitrary or truncated input: it parses or throws TOOL_OUTPUT_UNRECOGNIZED', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat({ max: T710.length }).map((n) => T710.slice(0, n)),
        ),
        (text) => {
          try {
            parseSedutilQuery(text);
          } catch (error) {
            expect(isEncplanError(error) && error.code === 'TOOL_OUTPUT_UNRECOGNIZED').toBe(true);
          }
        },
      ),
    );
  });

  it('says what an active Locking SP means before formatting: the admin password, or a PSID revert that wipes', () => {
    const notes = opalStateNotes(parseSedutilQuery(T710)).join(' ');
    expect(notes).toMatch(/Opal SSC 2\.15/);
    expect(notes).toMatch(/8 locking ranges besides the global range/);
    expect(notes).toMatch(/PSID revert .* erases everything/);
    expect(opalStateNotes(parseSedutilQuery(EVO960)).join(' ')).toMatch(/no locking range is in use yet/);
  });
});

describe('which drives may carry luks2-opal (cryptsetup 2.7.0 release notes)', () => {
  it('admits a drive sedutil reports as Opal 2', () => {
    expect(
      admitOpal({ sed: sedFromScan('scan-sata-opal2-and-enterprise', '/dev/nvme0'), behindUsbBridge: false }),
    ).toEqual({ admitted: true });
  });

  it.each([
    ['scan-nvme-pyrite-corsair-mp400', '/dev/nvme3n1', /only TCG Pyrite: it can lock but does not encrypt/],
    ['scan-sata-opal2-and-enterprise', '/dev/sdb', /TCG Enterprise SSC; cryptsetup drives OPAL2 only/],
    ['scan-sata-opal2-and-enterprise', '/dev/sda', /not a TCG Opal 2 self-encrypting drive/],
  ])('refuses %s %s', (fixture, device, reason) => {
    const admission = admitOpal({ sed: sedFromScan(fixture, device), behindUsbBridge: false });
    expect(admission).toEqual({ admitted: false, reason: expect.stringMatching(reason) });
  });

  it('refuses a drive with only the transport bit (NVMe OACS bit 0 of a WDC SN730) until sedutil confirms Opal 2', () => {
    const idCtrl = parseNvmeIdCtrl(read('nvme/id-ctrl-wdc-sn730-256g/stdout.json'));
    expect(idCtrl.security.nvmeSecuritySendReceive).toBe(true);
    const sed = assessSed([idCtrl.security], null);
    expect(sed.status).toBe('possible');
    expect(admitOpal({ sed, behindUsbBridge: false })).toEqual({
      admitted: false,
      reason: expect.stringMatching(/no tool confirmed TCG Opal 2: run sedutil-cli --scan/),
    });
  });

  it('refuses an Opal 2 drive behind a USB bridge, and a drive nothing was asked about', () => {
    const opal = sedFromScan('scan-sata-opal2-and-enterprise', '/dev/nvme0');
    expect(admitOpal({ sed: opal, behindUsbBridge: true })).toMatchObject({
      admitted: false,
      reason: expect.stringMatching(/USB adapters/),
    });
    expect(admitOpal({ sed: null, behindUsbBridge: null })).toMatchObject({ admitted: false });
  });
});

const laptop = facts(
  { provenance: { platform: 'linux' } },
  machine({ aes: true, cores: 8, memoryBytes: 16 * 1024 ** 3, kernel: '6.8.0' }),
  emptyDisk(250_059_350_016, '/dev/nvme0n1'),
  { disk: { transport: 'nvme' } },
);
const opalDrive: PlanFacts = { sed: sedFromScan('scan-sata-opal2-and-enterprise', '/dev/nvme0') };
const pyriteDrive: PlanFacts = { sed: sedFromScan('scan-nvme-pyrite-corsair-mp400', '/dev/nvme3n1') };
const formatArgv = (plan: Plan): readonly string[] | undefined =>
  plan.commands.find((command) => command.id === 'luks-format')?.argv;

describe('the plan for --target luks2-opal', () => {
  it('formats with --hw-opal (dm-crypt kept on top), never --hw-opal-only, on a confirmed Opal 2 drive', () => {
    const plan = buildPlan(facts(laptop, opalDrive), { targetTool: 'luks2-opal' });
    expect(plan.targetTool).toBe('luks2-opal');
    const argv = formatArgv(plan) ?? [];
    expect(argv.slice(0, 5)).toEqual(['cryptsetup', 'luksFormat', '--type', 'luks2', '--hw-opal']);
    expect(argv).not.toContain('--hw-opal-only');
    expect(argv).toContain('--cipher');
  });

  it('states what the user gives up: trust in the drive, reencryption, the PSID revert', () => {
    const plan = buildPlan(facts(laptop, opalDrive), { targetTool: 'luks2-opal' });
    const tradeOffs = plan.findings.filter((finding) => finding.ruleId === 'target-trade-offs');
    const text = tradeOffs.map((finding) => finding.message).join(' ');
    expect(text).toMatch(/Self-encrypting deception/);
    expect(text).toMatch(/No reencryption/);
    expect(text).toMatch(/PSID revert, which erases the whole drive/);
    expect(text).toMatch(/USB enclosure/);
  });

  it('gives no command at all on a Pyrite drive, and says why', () => {
    const plan = buildPlan(facts(laptop, pyriteDrive), { targetTool: 'luks2-opal' });
    expect(plan.commands).toEqual([]);
    expect(plan.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'target-admission',
        severity: 'critical',
        message: expect.stringMatching(/does not encrypt/),
      }),
    );
  });

  it('is never the default: an Opal 2 drive without --target gets plain LUKS2', () => {
    const plan = buildPlan(facts(laptop, opalDrive), {});
    expect(plan.targetTool).toBe('luks2');
    expect(formatArgv(plan)).not.toContain('--hw-opal');
    expect(plan.findings.some((finding) => finding.ruleId === 'target-trade-offs')).toBe(false);
  });

  it('is refused on macOS and Windows: cryptsetup and the kernel SED interface are Linux', () => {
    expect(() => buildPlan({ provenance: { platform: 'darwin' } }, { targetTool: 'luks2-opal' })).toThrow(
      /--target luks2-opal does not exist on macOS/,
    );
  });
});
