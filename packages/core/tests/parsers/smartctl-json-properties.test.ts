import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assessHealth, isEncplanError, parseSmartctlJson } from '@encplan/core';
import { checkHostileInputs, checkHugeInput, checkTruncations } from '../../../../tests/support/parser-properties.js';
import { fixture as readFixture } from '../support/fixtures.js';

const FAILING = readFixture('smartctl/sata-hdd-seagate-st3500418as-realloc304-v7.3/stdout.json');
const NVME = readFixture('smartctl/nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3/stdout.json');

describe('parseSmartctlJson on bad input', () => {
  it('gives a typed error or a consistent result for every truncation of a real output', () => {
    checkTruncations(FAILING, (text) => parseSmartctlJson(text), (report) => {
      // A truncation cannot be valid JSON unless it is the whole document, so a result is the full parse.
      expect(assessHealth(report.facts).verdict).toBe('failing');
    });
  });

  it('never crashes on hostile strings and JSON', () => {
    checkHostileInputs((text) => parseSmartctlJson(text), (report) => {
      // Anything that parses has a known format version, so it came with json_format_version [0|1, n].
      expect([0, 1]).toContain(report.jsonFormatVersion[0]);
    });
  });

  it('refuses a 10 MB output with TOOL_OUTPUT_TOO_LARGE', () => {
    checkHugeInput((text) => parseSmartctlJson(text), ' ');
  });

  it('refuses an unknown major json_format_version with TOOL_OUTPUT_UNRECOGNIZED', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1000 }), fc.nat(), (major, minor) => {
        const document = { ...JSON.parse(NVME), json_format_version: [major, minor] };
        let caught: unknown = null;
        try {
          parseSmartctlJson(JSON.stringify(document));
        } catch (error) {
          caught = error;
        }
        expect(isEncplanError(caught, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
      }),
    );
  });

  it('never turns wrongly typed fields into a healthy verdict', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (junk) => {
        const document = JSON.parse(FAILING);
        document.ata_smart_attributes.table.push({ id: junk, name: junk, raw: junk, value: junk });
        document.smart_status = { passed: junk === false ? false : true };
        expect(assessHealth(parseSmartctlJson(JSON.stringify(document)).facts).verdict).toBe('failing');
      }),
      { numRuns: 200 },
    );
  });

  it('reads 64-bit counters exactly from the --json=v string forms', () => {
    const document = JSON.parse(NVME);
    // 2^64 - 1 data units: the number form is rounded by JSON.parse, the _s form is exact.
    document.nvme_smart_health_information_log.data_units_written = 2 ** 64;
    document.nvme_smart_health_information_log.data_units_written_s = '18446744073709551615';
    const health = assessHealth(parseSmartctlJson(JSON.stringify(document)).facts);
    expect(health.dataWrittenBytesExact).toBe((18446744073709551615n * 512000n).toString());
  });

  it('flags a disagreement between smartctl.exit_status and the process exit code', () => {
    expect(parseSmartctlJson(FAILING, 64).exitStatusMismatch).toEqual({ json: 0, process: 64 });
    expect(parseSmartctlJson(FAILING, 0).exitStatusMismatch).toBeNull();
  });
});
