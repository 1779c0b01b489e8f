import { describe, expect, it } from 'vitest';
import { healthSchema } from '@encplan/core';
import { assessHealth } from '../../src/analyses/health.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import { type Health } from '../../src/domain/health.js';
import { fixtureCases } from '../../../../tests/support/fixtures.js';
import { fixture as readFixture } from '../support/fixtures.js';

function healthOf(caseName: string, processExitCode: number | null = null): Health {
  return assessHealth(
    parseSmartctlJson(readFixture(`smartctl/${caseName}/stdout.json`), processExitCode).facts,
  );
}

function ids(health: Health, severity?: string): string[] {
  return health.findings
    .filter((finding) => severity === undefined || finding.severity === severity)
    .map((finding) => finding.id);
}

/** Expected verdict per captured file (fixtures/smartctl/<case>). */
const EXPECTED_VERDICTS: Record<string, Health['verdict']> = {
  'error-open-failed-windows-exit2-v7.0': 'unknown',
  'megaraid-sat-wd4000fyyx-exit4-v7.1': 'healthy',
  // Apple silicon (AP0512Z) through IOKit: exit status 4 because Apple's controller refuses the error log; available_spare_threshold 99 is Apple's quirk, spare is 100.
  'macos-apple-ssd-ap0512z-nvme-exit4-v7.5': 'healthy',
  'nvme-corsair-force-mp510-v7.0': 'healthy',
  'nvme-crucial-p2-ct250p2ssd8-v7.3': 'healthy',
  'nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3': 'healthy',
  'nvme-intel-optane-mempek1w032ga-v7.3': 'healthy',
  'nvme-sabrent-rocket4-1tb-v7.4': 'healthy',
  'nvme-samsung-970evo-500gb-v7.0': 'failing',
  'nvme-samsung-970evoplus-250gb-v7.3': 'healthy',
  'nvme-seagate-firecuda530-4tb-v7.3': 'healthy',
  'sas-hdd-hgst-v7.3': 'healthy',
  'sas-hdd-hitachi-h109060sesun600g-v7.3': 'healthy',
  'sas-hdd-seagate-st1200mm0088-v6.7-jsonfmt0.1': 'healthy',
  'sas-hdd-seagate-xall-farm-v7.4': 'healthy',
  'sata-hdd-hgst-hus724020ale640-exit64-v7.3': 'healthy',
  'sata-hdd-seagate-exos-x16-v7.1': 'healthy',
  // 188 = 12/12/12 packed (three 16-bit counters): 12 timeouts only inform (Scrutiny's bucket under 100).
  'sata-hdd-seagate-exos-x16-188-packed-v7.1': 'healthy',
  'sata-hdd-seagate-enterprise-capacity-9-packed-v7.3': 'healthy',
  // 196 "2111 (12437 0)": 2111 reallocation events (GSmartControl: warning from 1).
  'sata-hdd-seagate-momentus-196-packed-no-power-on-time-v7.0': 'warning',
  // 184 End-to-End_Error 1: warning (29 command timeouts only inform).
  'sata-ssd-micron-5300-1.9tb-184-188-v7.3': 'warning',
  // 241 read in 32 MiB units, nothing wrong.
  'sata-ssd-dell-intel-s3520-240gb-241-in-32mib-v7.1': 'healthy',
  // 5 Retired_Block_Count 1 and 196 1 warn; the wear counters disagree (0 % vs 26 %): info, worse one used.
  'sata-ssd-kingston-kc400-1tb-wear-signals-disagree-v7.3': 'warning',
  // 260 grown defects and 535 uncorrected write errors: failing, as 5 >= 16 and 187 >= 1 on ATA.
  'scsi-hdd-seagate-st373453lc-260-grown-535-uncorrected-v7.4': 'failing',
  // controller_busy_time 19,743 h > power_on_hours 482: counters-inconsistent warning.
  'nvme-hgst-husmr7632-busy-time-exceeds-power-on-v7.1': 'warning',
  'sata-hdd-seagate-farm-log-only-v7.5': 'unknown',
  'sata-hdd-seagate-st3500418as-realloc304-v7.3': 'failing',
  'sata-hdd-wdc-red-wd20efrx-v7.3': 'healthy',
  'sata-hdd-wdc-wd140edfz-v7.0': 'healthy',
  'sata-ssd-850pro-windows-ata-v7.0': 'healthy',
  'sata-ssd-crucial-m4-truenas-xall-v7.4': 'healthy',
  'sata-ssd-kingston-a400-msata-exit4-v7.3': 'healthy',
  'sata-ssd-micron-5300-480gb-v7.1': 'healthy',
  'sata-ssd-samsung-840-xall-v7.0': 'healthy',
  'sata-ssd-samsung-860evo-500gb-xall-v7.0': 'healthy',
  'sata-ssd-samsung-pm883-1.9tb-v7.3': 'healthy',
  'sata-ssd-transcend-mts400-32gb-v7.3': 'healthy',
  'sata-ssd-wd-red-sa500-4tb-v7.3': 'healthy',
  'scsi-hdd-hp-mas3735nc-15k-v7.4': 'healthy',
  'scsi-intel-raid1-volume-windows-exit4-v7.0': 'unknown',
  'usb-sat-sandisk-pssd-v7.4': 'healthy',
  'loop-unsupported-device-type-debian12-v7.3': 'unknown',
  'loop-sat-reports-sleep-debian12-v7.3': 'unknown',
  'virtio-unsupported-device-type-debian12-v7.3': 'unknown',
};

describe('assessHealth over every captured smartctl output', () => {
  it('has an expected verdict for every fixture folder', () => {
    expect(fixtureCases('smartctl')).toEqual(Object.keys(EXPECTED_VERDICTS).sort());
  });

  it.each(Object.entries(EXPECTED_VERDICTS))(
    'gives %s the verdict %s, valid against the schema',
    (caseName, verdict) => {
      const health = healthOf(caseName);
      expect(health.verdict).toBe(verdict);
      expect(healthSchema.parse(health)).toEqual(health);
      for (const finding of health.findings.filter((f) => f.severity !== 'info')) {
        expect(finding.threshold, finding.id).not.toBeNull();
        expect(finding.thresholdSource, finding.id).toMatch(/\S/);
        // The project stands on its own: thresholds cite their original source, never the team's notes.
        expect(finding.thresholdSource, finding.id).not.toMatch(/reference-facts/);
        expect(finding.source.origin).toBe('smartctl');
      }
    },
  );
});

describe('assessHealth on the files the issue names', () => {
  it('reports the worn datacenter NVMe as 75 % used with about two years left at its wear rate', () => {
    const health = healthOf('nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3');
    expect(health).toMatchObject({
      protocol: 'nvme',
      percentageUsed: 75,
      availableSparePercent: 99,
      availableSpareThresholdPercent: 10,
      powerOnHours: 49441,
      unsafeShutdowns: 106,
      temperatureCelsius: 19,
      // 5,014,522,069 data units × 512,000 bytes.
      dataWrittenBytesExact: '2567435299328000',
      estimatedRemainingLifeYears: 1.9,
      remainingLifeBasis: 'power-on-hours',
    });
    // 75 % is past GSmartControl's "life left < 50" notice, short of the 80 % warning tier.
    expect(health.verdict).toBe('healthy');
    expect(health.findings.find((f) => f.id === 'endurance-half-used')?.source).toEqual({
      origin: 'smartctl',
      field: 'nvme_smart_health_information_log.percentage_used',
    });
  });

  it('fails the HDD with 304 reallocated sectors although smartctl itself says PASSED', () => {
    const health = healthOf('sata-hdd-seagate-st3500418as-realloc304-v7.3');
    expect(health.selfAssessmentPassed).toBe(true);
    const finding = health.findings.find((f) => f.id === 'ata-reallocated-sectors');
    expect(finding).toMatchObject({
      severity: 'failing',
      attribute: '5 Reallocated_Sector_Ct',
      value: 304,
      threshold: 'raw >= 16',
    });
    expect(finding?.source.field).toBe('ata_smart_attributes.table[id=5].raw');
  });

  it('keeps the data of healthy drives behind RAID that exit with status 4', () => {
    const megaraid = healthOf('megaraid-sat-wd4000fyyx-exit4-v7.1');
    expect(megaraid.unavailable).toBeNull();
    expect(megaraid.exitStatus).toEqual({ value: 4, problems: ['smart-command-failed'], findings: [] });
    expect(megaraid.smartctlDeviceType).toBe('sat+megaraid,0');
    expect(ids(megaraid, 'info')).toContain('smartctl-command-failed');
    const kingston = healthOf('sata-ssd-kingston-a400-msata-exit4-v7.3');
    expect(kingston).toMatchObject({
      verdict: 'healthy',
      percentageUsed: 2,
      dataWrittenBytesExact: String(398n * 1073741824n),
    });
  });

  it('says a RAID volume without SMART is unknown with a reason, not healthy', () => {
    const health = healthOf('scsi-intel-raid1-volume-windows-exit4-v7.0');
    expect(health.unavailable?.reason).toBe('raid-volume');
    expect(health.findings).toEqual([]);
  });

  it('explains the exit 2 open failure as a permission problem', () => {
    const health = healthOf('error-open-failed-windows-exit2-v7.0', 2);
    expect(health).toMatchObject({ verdict: 'unknown', unavailable: { reason: 'permission-denied' } });
    expect(health.unavailable?.detail).toContain('Open failed, Error=5');
  });

  it('reads smartctl 6.7 (json_format_version 0.1) with the old SCSI field names', () => {
    const report = parseSmartctlJson(
      readFixture('smartctl/sas-hdd-seagate-st1200mm0088-v6.7-jsonfmt0.1/stdout.json'),
    );
    expect(report.jsonFormatVersion).toEqual([0, 1]);
    expect(report.facts.model).toBe('SEAGATE ST1200MM0088');
    expect(report.facts.scsi?.grownDefects?.value).toBe(0);
    expect(assessHealth(report.facts)).toMatchObject({
      protocol: 'scsi',
      powerOnHours: 5675,
      temperatureCelsius: 31,
      rotational: true,
    });
  });

  it('reads the renamed scsi_* fields of smartctl 7.3 and the UNMAP capability', () => {
    const report = parseSmartctlJson(readFixture('smartctl/sas-hdd-hgst-v7.3/stdout.json'));
    expect(report.facts.model).toBe('REDACTED');
    expect(report.facts.scsi?.uncorrectedErrors.map((e) => e.value)).toEqual([0, 0, 0]);
    expect(report.trim).toMatchObject({ mechanism: 'scsi-unmap', supported: false });
    // "gigabytes_processed": "2811.293" in the write counter log, in 10^9 bytes.
    expect(assessHealth(report.facts).dataWrittenBytesExact).toBe('2811293000000');
  });

  it('reports the 970 EVO media errors as failing, on the same scale as ATA 187', () => {
    const finding = healthOf('nvme-samsung-970evo-500gb-v7.0').findings.find(
      (f) => f.id === 'nvme-media-errors',
    );
    expect(finding).toMatchObject({ severity: 'failing', value: 7, threshold: '>= 1' });
    expect(finding?.thresholdSource).toContain('Backblaze');
  });

  it('turns exit bit 6 of the HGST drive into an informational finding only', () => {
    const health = healthOf('sata-hdd-hgst-hus724020ale640-exit64-v7.3');
    expect(health.verdict).toBe('healthy');
    expect(ids(health, 'info')).toContain('smartctl-error-log-has-errors');
  });

  it('uses the vendor wear attribute of SATA SSDs: Samsung 177, Kingston 231, Micron 202', () => {
    expect(healthOf('sata-ssd-samsung-860evo-500gb-xall-v7.0').percentageUsed).toBe(19);
    expect(healthOf('sata-ssd-kingston-a400-msata-exit4-v7.3').percentageUsed).toBe(2);
    expect(healthOf('sata-ssd-micron-5300-480gb-v7.1').percentageUsed).toBe(0);
    // PM883's 202 is Exception_Mode_Status, not wear: 177 Wear_Leveling_Count (99) is used instead.
    expect(healthOf('sata-ssd-samsung-pm883-1.9tb-v7.3').percentageUsed).toBe(1);
  });

  it('does not guess the unit of attribute 241 on drives missing from the smartctl database', () => {
    expect(healthOf('sata-ssd-wd-red-sa500-4tb-v7.3').dataWrittenBytes).toBeNull();
    expect(healthOf('sata-ssd-samsung-pm883-1.9tb-v7.3').dataWrittenBytesExact).toBe(
      String(63180483059n * 512n),
    );
  });

  it('says why a loop device and a virtio disk have no SMART: the device type is unknown (exit bit 0)', () => {
    for (const caseName of [
      'loop-unsupported-device-type-debian12-v7.3',
      'virtio-unsupported-device-type-debian12-v7.3',
    ]) {
      const health = healthOf(caseName, 1);
      expect(health.unavailable?.reason).toBe('device-type-unknown');
      expect(health.exitStatus?.problems).toEqual(['command-line-invalid']);
    }
    expect(healthOf('loop-sat-reports-sleep-debian12-v7.3', 2).unavailable?.reason).toBe('device-in-standby');
  });

  it('reports a FARM-log-only document as having no SMART data', () => {
    expect(healthOf('sata-hdd-seagate-farm-log-only-v7.5').unavailable?.reason).toBe('no-smart-data');
  });
});

/** A real capture with some NVMe health-log counters replaced, to put one rule on its boundary. */
function healthWithNvmeLog(caseName: string, changes: Record<string, number>): Health {
  const document = JSON.parse(readFixture(`smartctl/${caseName}/stdout.json`)) as {
    nvme_smart_health_information_log: Record<string, number>;
    power_on_time?: { hours: number };
  };
  Object.assign(document.nvme_smart_health_information_log, changes);
  // smartctl repeats the log's power-on hours at the top level (power_on_time.hours).
  if (changes.power_on_hours !== undefined && document.power_on_time !== undefined) {
    document.power_on_time.hours = changes.power_on_hours;
  }
  return assessHealth(parseSmartctlJson(JSON.stringify(document), null).facts);
}

const WORN = 'nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3';

describe('wear tiers', () => {
  it.each([
    [49, 'endurance-used', 'healthy'],
    [50, 'endurance-half-used', 'healthy'],
    [79, 'endurance-half-used', 'healthy'],
    [80, 'endurance-low', 'warning'],
    [85, 'endurance-low', 'warning'],
    [90, 'endurance-nearly-exhausted', 'warning'],
    [100, 'endurance-exhausted', 'failing'],
  ] as const)('judges %i %% of rated endurance used as %s (%s)', (percent, id, verdict) => {
    const health = healthWithNvmeLog(WORN, { percentage_used: percent });
    expect(ids(health)).toContain(id);
    expect(health.verdict).toBe(verdict);
  });

  it('never calls a drive at 85 % of its rated endurance healthy, and says what is left', () => {
    const health = healthWithNvmeLog(WORN, { percentage_used: 85 });
    const finding = health.findings.find((f) => f.id === 'endurance-low');
    expect(finding?.message).toContain('15 % is left');
    expect(finding?.thresholdSource).toContain('JESD218');
  });

  it('warns when the rated endurance runs out within a year at the wear rate seen so far', () => {
    // 60 % used in 1,000 hours: the remaining 40 % takes ~667 hours, 0.1 years.
    const health = healthWithNvmeLog(WORN, {
      percentage_used: 60,
      power_on_hours: 1000,
      data_units_written: 1000,
    });
    expect(health.estimatedRemainingLifeYears).toBe(0.1);
    expect(ids(health, 'warning')).toContain('endurance-runs-out-soon');
    expect(health.verdict).toBe('warning');
  });
});

describe('counter cross-checks', () => {
  it('says the controller busy time and the power-on hours disagree, without claiming which is wrong', () => {
    // 482 power-on hours against 19,743 hours (1,184,580 minutes) of controller busy time.
    const health = healthWithNvmeLog('nvme-sabrent-rocket4-1tb-v7.4', {
      power_on_hours: 482,
      controller_busy_time: 1_184_580,
      percentage_used: 10,
    });
    const finding = health.findings.find((f) => f.id === 'counters-inconsistent');
    expect(finding).toMatchObject({
      severity: 'warning',
      attribute: 'controller_busy_time / power_on_hours',
      value: 1_184_580,
    });
    expect(finding?.message).toContain('19743 hours busy but 482 hours powered on');
    expect(finding?.message).toContain('cannot tell which one is right');
    expect(finding?.message).not.toMatch(/hours are wrong|is wrong/);
    expect(health.estimatedRemainingLifeYears).toBeNull();
    expect(health.remainingLifeBasis).toBeNull();
    expect(health.verdict).toBe('warning');
  });

  it('accepts busy time below the power-on time, as every real capture has it', () => {
    const health = healthWithNvmeLog('nvme-sabrent-rocket4-1tb-v7.4', { percentage_used: 10 });
    expect(ids(health)).not.toContain('counters-inconsistent');
    expect(health.remainingLifeBasis).toBe('power-on-hours');
  });

  it('gives no life estimate when more was written than any interface could carry in the power-on time', () => {
    // 2.57 PB in one hour would be ~713 GB/s.
    const health = healthWithNvmeLog(WORN, { power_on_hours: 1, controller_busy_time: 0 });
    expect(health.findings.find((f) => f.id === 'counters-inconsistent')?.attribute).toBe(
      'power_on_hours / data_units_written',
    );
    expect(health.estimatedRemainingLifeYears).toBeNull();
    expect(health.remainingLifeBasis).toBeNull();
    expect(health.verdict).toBe('warning');
  });
});
