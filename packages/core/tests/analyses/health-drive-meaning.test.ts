import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEncplanError } from '@encplan/core';
import { assessHealth } from '../../src/analyses/health.js';
import { rawCountOf } from '../../src/domain/ata-attribute-formats.js';
import type { Health, HealthVerdict } from '../../src/domain/health.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import { healthSection } from '../../src/report/assessment-sections.js';
import { fixture as readFixture } from '../support/fixtures.js';

function text(caseName: string): string {
  return readFixture(`smartctl/${caseName}/stdout.json`);
}

function healthOf(caseName: string): Health {
  return assessHealth(parseSmartctlJson(text(caseName)).facts);
}

function finding(health: Health, id: string): Health['findings'][number] | undefined {
  return health.findings.find((candidate) => candidate.id === id);
}

const MOMENTUS = 'sata-hdd-seagate-momentus-196-packed-no-power-on-time-v7.0';
const EXOS_PACKED = 'sata-hdd-seagate-exos-x16-188-packed-v7.1';
const DELL_S3520 = 'sata-ssd-dell-intel-s3520-240gb-241-in-32mib-v7.1';
const KC400 = 'sata-ssd-kingston-kc400-1tb-wear-signals-disagree-v7.3';
const SCSI_FAILING = 'scsi-hdd-seagate-st373453lc-260-grown-535-uncorrected-v7.4';
const MICRON_184 = 'sata-ssd-micron-5300-1.9tb-184-188-v7.3';
const HGST_BUSY = 'nvme-hgst-husmr7632-busy-time-exceeds-power-on-v7.1';
const OPTANE_1PCT = 'nvme-intel-optane-mempek1w032ga-v7.3';

describe('raw values read as smartctl means them', () => {
  it('reads 196 "2111 (12437 0)" as 2111 events, not 53416508262463', () => {
    const facts = parseSmartctlJson(text(MOMENTUS)).facts;
    const attribute = facts.ataAttributes.find((candidate) => candidate.id === 196);
    expect(attribute?.raw?.value).toBe(53_416_508_262_463);
    expect(attribute?.count).toBe(2111);
    const events = finding(assessHealth(facts), 'ata-reallocation-events');
    expect(events).toMatchObject({ value: 2111, severity: 'warning' });
    expect(events?.message).toContain('"2111 (12437 0)"');
  });

  it('takes the low 16 bits of 5/196 (drivedb raw16(raw16)) when smartctl printed no raw.string', () => {
    expect(rawCountOf(196, 53_416_508_262_463n, null, null)?.count).toBe(2111);
    expect(rawCountOf(5, 0x0001_0000_0004n, null, null)?.count).toBe(4);
    expect(rawCountOf(9, 167_031_278_144_165n, null, null)?.count).toBe(2725);
  });

  it('reads power-on hours from attribute 9 when power_on_time is absent', () => {
    const health = healthOf(MOMENTUS);
    // 9 Power_On_Hours raw 167031278144165 printed "2725 (151 234 0)".
    expect(health.powerOnHours).toBe(2725);
    expect(finding(health, 'power-on-hours')?.source.field).toBe(
      'ata_smart_attributes.table[id=9].raw.string',
    );
  });

  it('reads hours from a Seagate "47060h+35m+00.858s" rendering and converts minutes-named attributes', () => {
    expect(rawCountOf(9, 9_023_116_403_587_028n, '47060h+35m+00.858s', null)?.count).toBe(47060);
    expect(rawCountOf(9, 0n, '34013 (105 34 0)', null)?.count).toBe(34013);
  });

  it("splits Seagate's packed 188 into three 16-bit counters: 51540393996 is 12/12/12", () => {
    const health = healthOf(EXOS_PACKED);
    const timeouts = finding(health, 'ata-command-timeouts');
    expect(timeouts).toMatchObject({ value: 12, severity: 'info' });
    expect(timeouts?.message).toContain('12/12/12');
    expect(health.verdict).toBe('healthy');
    // smartctl 7.3's own rendering "2 2 2" gives the same reading.
    expect(rawCountOf(188, 8_590_065_666n, '2 2 2', 'Seagate Enterprise Capacity 3.5 HDD')?.count).toBe(2);
    // Not a Seagate family: the raw value is the count, as smartctl prints it.
    expect(rawCountOf(188, 29n, '29', 'Micron 5100 Pro / 52x0 / 5300 SSDs')?.count).toBe(29);
  });
});

describe('write units per model family', () => {
  it('reads the Dell/Intel S3520 241 in 32 MiB units: about 4.3 TB, not 63.2 MiB', () => {
    const health = healthOf(DELL_S3520);
    expect(health.dataWrittenBytesExact).toBe(String(129_493n * 33_554_432n));
    expect(health.dataWrittenUnit).toMatchObject({
      attribute: '241 Total_LBAs_Written',
      raw: '129493',
      unit: '32 MiB units',
    });
    expect(health.dataWrittenUnit?.source).toContain('Intel S3520 Series SSDs');
    const row = healthSection(health, []).facts.find((fact) => fact.label === 'Data written');
    expect(row?.value).toBe('4.0 TiB (241 Total_LBAs_Written: 129493 32 MiB units)');
  });

  it('reads a logical-block 241 equal to the drive’s 225 Host_Writes_32MiB in 32 MiB units', () => {
    const document = JSON.parse(text(DELL_S3520)) as { model_family: string };
    document.model_family = 'Some other family';
    const health = assessHealth(parseSmartctlJson(JSON.stringify(document)).facts);
    expect(health.dataWrittenUnit?.unit).toBe('32 MiB units');
    expect(health.dataWrittenUnit?.source).toContain('225 Host_Writes_32MiB');
  });

  it('shows the unit beside NVMe and SCSI figures too', () => {
    expect(healthOf(OPTANE_1PCT).dataWrittenUnit?.unit).toBe('units of 512 000 bytes');
    expect(healthOf(SCSI_FAILING).dataWrittenUnit).toMatchObject({ raw: '11151.772', unit: '10^9 bytes' });
  });
});

describe('wear signals compared', () => {
  it('says the KC400 wear counters disagree and uses the worse (26 %), not the normalised 100', () => {
    const health = healthOf(KC400);
    expect(health.wearSignals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ signal: '231 SSD_Life_Left (normalised)', percentUsed: 0 }),
        expect.objectContaining({ signal: '231 SSD_Life_Left (raw, life left)', percentUsed: 26 }),
      ]),
    );
    expect(health.percentageUsed).toBe(26);
    const disagree = finding(health, 'wear-signals-disagree');
    expect(disagree?.message).toContain('231 SSD_Life_Left (normalised) says 0 % used');
    expect(disagree?.message).toContain('231 SSD_Life_Left (raw, life left) says 26 % used');
    expect(disagree?.message).not.toMatch(/is wrong/);
    expect(health.estimatedRemainingLifeYears).toBeNull();
  });

  it('keeps agreeing signals quiet (Samsung 860 EVO: device statistics 19 %, 177 normalised 19 %)', () => {
    const health = healthOf('sata-ssd-samsung-860evo-500gb-xall-v7.0');
    expect(health.wearSignals?.map((signal) => signal.percentUsed)).toEqual([19, 19]);
    expect(finding(health, 'wear-signals-disagree')).toBeUndefined();
    expect(health.estimatedRemainingLifeYears).not.toBeNull();
  });

  it('finds writes no drive is rated for at "1 % used" and estimates no life', () => {
    // The Optane 32 GB module at 1 %, given 2.3 PiB written: 81 000 full-drive writes at under 2 % used would
    // need a rating of over 4 million drive writes.
    const document = JSON.parse(text(OPTANE_1PCT)) as {
      nvme_smart_health_information_log: Record<string, number>;
    };
    document.nvme_smart_health_information_log.data_units_written = 5_050_000_000;
    const health = assessHealth(parseSmartctlJson(JSON.stringify(document)).facts);
    const disagree = finding(health, 'wear-signals-disagree');
    expect(disagree?.attribute).toBe('percentage_used / data_units_written');
    expect(health.estimatedRemainingLifeYears).toBeNull();
  });
});

describe('one severity scale across ATA, NVMe and SCSI', () => {
  it('fails the SCSI drive with 260 grown defects and 535 uncorrected write errors, as ATA 5/187 would', () => {
    const health = healthOf(SCSI_FAILING);
    expect(health.verdict).toBe('failing');
    expect(finding(health, 'scsi-grown-defects')).toMatchObject({ severity: 'failing', value: 260 });
    expect(
      health.findings.find(
        (candidate) => candidate.id === 'scsi-uncorrected-errors' && candidate.value === 535,
      ),
    ).toMatchObject({ severity: 'failing', threshold: '>= 1' });
    // An ATA drive with one Reported_Uncorrect gets the same severity for the same failure.
    const wdRed = JSON.parse(text('sata-hdd-wdc-red-wd20efrx-v7.3')) as Record<string, unknown>;
    const ata = assessHealth(parseSmartctlJson(withCounter(wdRed, 'ata:187', 1)).facts);
    expect(finding(ata, 'ata-reported-uncorrectable')?.severity).toBe('failing');
  });

  it('handles 184 End-to-End_Error and 188 Command_Timeout', () => {
    const health = healthOf(MICRON_184);
    expect(finding(health, 'ata-end-to-end-errors')).toMatchObject({ severity: 'warning', value: 1 });
    expect(finding(health, 'ata-command-timeouts')).toMatchObject({ severity: 'info', value: 29 });
    expect(health.verdict).toBe('warning');
  });
});

describe('remaining life only from counters that agree', () => {
  it('estimates nothing from "1 % used" (the Optane module would get 464.8 years)', () => {
    const health = healthOf(OPTANE_1PCT);
    expect(health.percentageUsed).toBe(1);
    expect(health.estimatedRemainingLifeYears).toBeNull();
  });

  it('estimates nothing when NVMe busy time exceeds power-on hours, and blames neither counter', () => {
    const health = healthOf(HGST_BUSY);
    const inconsistent = finding(health, 'counters-inconsistent');
    expect(inconsistent?.message).toContain('19744 hours busy but 482 hours powered on');
    expect(inconsistent?.message).not.toMatch(/hours are wrong/);
    expect(health.estimatedRemainingLifeYears).toBeNull();
  });
});

describe('a smartctl --scan output', () => {
  it('lists the devices and says to run smartctl and encplan health per device', () => {
    let caught: unknown = null;
    try {
      parseSmartctlJson(readFixture('smartctl-scan/linux-three-devices-v7.4/stdout.json'));
    } catch (error) {
      caught = error;
    }
    expect(isEncplanError(caught, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    const error = caught as { message: string; hint?: string };
    expect(error.message).toContain('lists 3 devices (/dev/sda (sat), /dev/nvme0 (nvme), /dev/nvme1 (nvme))');
    expect(error.hint).toContain('smartctl --json=v -x -d sat /dev/sda > sda.json; encplan health sda.json');
    expect(error.hint).toContain('encplan health nvme1.json');
  });
});

const RANK: Record<HealthVerdict, number> = { unknown: -1, healthy: 0, warning: 1, failing: 2 };

interface AtaRow {
  id: number;
  raw: { value: number; string: string };
}

/** Sets one failure counter of a captured output to `value`, as smartctl would print it. */
function withCounter(document: Record<string, unknown>, counter: string, value: number): string {
  const copy = structuredClone(document);
  if (counter.startsWith('ata:')) {
    const id = Number(counter.slice(4));
    const table = (copy.ata_smart_attributes as { table: AtaRow[] }).table;
    const row = table.find((candidate) => candidate.id === id);
    if (row !== undefined) {
      row.raw = { value, string: String(value) };
    } else {
      table.push({ id, raw: { value, string: String(value) } });
    }
  } else if (counter === 'nvme:media_errors') {
    (copy.nvme_smart_health_information_log as Record<string, number>).media_errors = value;
  } else if (counter === 'scsi:grown') {
    copy.scsi_grown_defect_list = value;
  } else {
    const log = copy.scsi_error_counter_log as Record<string, Record<string, number>>;
    const direction = counter.slice('scsi:'.length);
    log[direction] = { ...log[direction], total_uncorrected_errors: value };
  }
  return JSON.stringify(copy);
}

describe('property: a verdict never gets better when a failure counter grows', () => {
  const cases: readonly { readonly name: string; readonly counters: readonly string[] }[] = [
    {
      name: 'sata-hdd-wdc-red-wd20efrx-v7.3',
      counters: ['ata:5', 'ata:184', 'ata:187', 'ata:188', 'ata:196', 'ata:197', 'ata:198', 'ata:199'],
    },
    { name: MICRON_184, counters: ['ata:5', 'ata:184', 'ata:187', 'ata:188', 'ata:197', 'ata:198'] },
    { name: 'nvme-samsung-970evoplus-250gb-v7.3', counters: ['nvme:media_errors'] },
    { name: 'sas-hdd-hitachi-h109060sesun600g-v7.3', counters: ['scsi:grown', 'scsi:read', 'scsi:write'] },
  ];
  for (const { name, counters } of cases) {
    it(`holds for ${name}`, () => {
      const document = JSON.parse(text(name)) as Record<string, unknown>;
      fc.assert(
        fc.property(
          fc.constantFrom(...counters),
          fc.integer({ min: 0, max: 65_535 }),
          fc.integer({ min: 0, max: 65_535 }),
          (counter, low, extra) => {
            const before = assessHealth(parseSmartctlJson(withCounter(document, counter, low)).facts);
            const after = assessHealth(parseSmartctlJson(withCounter(document, counter, low + extra)).facts);
            expect(RANK[after.verdict]).toBeGreaterThanOrEqual(RANK[before.verdict]);
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
