import { describe, expect, it } from 'vitest';
import { assessHealth, unavailableHealth } from '../../src/analyses/health.js';
import { parseNvmeSmartLog } from '../../src/parsers/nvme/smart-log.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import { fixture } from '../support/fixtures.js';
import { renderHealth } from '../../src/report/health-text.js';

describe('renderHealth', () => {
  it('puts the verdict first, then the figures, then failing findings before informational ones', () => {
    const health = assessHealth(
      parseSmartctlJson(fixture('smartctl/nvme-samsung-970evo-500gb-v7.0/stdout.json')).facts,
    );
    const lines = renderHealth(health).split('\n');
    expect(lines[0]).toBe(
      'Health: FAILING: replace this drive before you encrypt it; back up its data first.',
    );
    expect(lines[1]).toBe('  Drive: Samsung SSD 970 EVO 500GB, NVME, -d nvme (smartctl 7.0)');
    // One unit formatter for the product: IEC (33.59 TB = 30.5 TiB), as every other view shows it.
    expect(lines[2]).toMatch(
      /^ {2}endurance used 3 % · ~47.2 years left at the wear rate so far · spare 99 % \(threshold 10 %\) · written 30.5 TiB/,
    );
    expect(lines[3]).toBe('  !! The drive reports 7 unrecovered media/data integrity errors.');
    expect(lines[4]).toContain(
      'from smartctl nvme_smart_health_information_log.media_errors; rule > 0 (AnalogJ/scrutiny webapp/backend/pkg/thresholds/nvme_attributes.go)',
    );
    expect(lines.slice(5).some((line) => line.startsWith('  !!'))).toBe(false);
  });

  it('explains why the verdict is unknown and prints no findings', () => {
    const text = renderHealth(
      unavailableHealth('tool-missing', 'smartctl is not installed (apt-get install smartmontools).'),
    );
    expect(text).toBe(
      'Health: UNKNOWN: SMART data could not be read.\n  Why: tool-missing: smartctl is not installed (apt-get install smartmontools).',
    );
  });

  it('renders an nvme-cli based section without a smartctl device type', () => {
    const text = renderHealth(
      assessHealth(parseNvmeSmartLog(fixture('nvme/smart-log-v2.3-seagate-firecuda530/stdout.json'))),
    );
    expect(text.split('\n')[0]).toMatch(/^Health: HEALTHY/);
    expect(text).toContain('from nvme-cli percent_used');
  });
});
