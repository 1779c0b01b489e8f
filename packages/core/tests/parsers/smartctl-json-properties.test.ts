import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { healthFromSmartctlJson, isEncplanError } from '@encplan/core';
import { assessHealth } from '../../src/analyses/health.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import {
  checkHostileInputs,
  checkHugeInput,
  checkTruncations,
} from '../../../../tests/support/parser-properties.js';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, fixture as readFixture } from '../support/fixtures.js';

const FAILING = readFixture('smartctl/sata-hdd-seagate-st3500418as-realloc304-v7.3/stdout.json');
const NVME = readFixture('smartctl/nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3/stdout.json');

describe('parseSmartctlJson on bad input', () => {
  it('gives a typed error or a consistent result for every truncation of a real output', () => {
    checkTruncations(
      FAILING,
      (text) => parseSmartctlJson(text),
      (report) => {
        // A truncation cannot be valid JSON unless it is the whole document, so a result is the full parse.
        expect(assessHealth(report.facts).verdict).toBe('failing');
      },
    );
  });

  it('never crashes on hostile strings and JSON', () => {
    checkHostileInputs(
      (text) => parseSmartctlJson(text),
      (report) => {
        // Anything that parses has a known format version, so it came with json_format_version [0|1, n].
        expect([0, 1]).toContain(report.jsonFormatVersion[0]);
      },
    );
    // 300 fast-check runs take ~4 s on a loaded 2-core CI machine: room above vitest's 5 s default.
  }, 30_000);

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

/** The parts of a smartctl NVMe document these tests edit. */
interface NvmeDocument {
  smartctl: Record<string, unknown>;
  nvme_smart_health_information_log: Record<string, unknown>;
}

describe('implausible smartctl values (issue 16)', () => {
  const HEALTHY_NVME = readFixture('smartctl/nvme-crucial-p2-ct250p2ssd8-v7.3/stdout.json');

  function judged(edit: (document: NvmeDocument) => void) {
    const document = JSON.parse(HEALTHY_NVME) as NvmeDocument;
    edit(document);
    return healthFromSmartctlJson(JSON.stringify(document).replace('"__INF__"', '1e999'));
  }

  it.each([
    [
      'a non-numeric exit status',
      (d: NvmeDocument) => (d.smartctl.exit_status = 'bogus'),
      'smartctl.exit_status',
    ],
    [
      'a temperature of 1e308',
      (d: NvmeDocument) => (d.nvme_smart_health_information_log.temperature = 1e308),
      'nvme_smart_health_information_log.temperature',
    ],
    [
      'a negative available spare',
      (d: NvmeDocument) => (d.nvme_smart_health_information_log.available_spare = -1),
      'nvme_smart_health_information_log.available_spare',
    ],
    [
      'data units written of 1e308',
      (d: NvmeDocument) => (d.nvme_smart_health_information_log.data_units_written = 1e308),
      'nvme_smart_health_information_log.data_units_written',
    ],
    [
      'media errors that overflow to Infinity',
      (d: NvmeDocument) => (d.nvme_smart_health_information_log.media_errors = '__INF__'),
      'nvme_smart_health_information_log.media_errors',
    ],
    [
      'a negative unsafe-shutdown counter',
      (d: NvmeDocument) => (d.nvme_smart_health_information_log.unsafe_shutdowns = -5),
      'nvme_smart_health_information_log.unsafe_shutdowns',
    ],
  ])(
    '%s is a DATA_INCONSISTENT warning, left out of the report, and the verdict is not healthy',
    (_name, edit, field) => {
      expect(healthFromSmartctlJson(HEALTHY_NVME).health.verdict).toBe('healthy');
      const { health, warnings } = judged(edit);
      expect(health.verdict).not.toBe('healthy');
      expect(warnings).toContainEqual(
        expect.objectContaining({
          code: 'DATA_INCONSISTENT',
          source: 'smartctl',
          message: expect.stringContaining(field),
        }),
      );
      const printed = JSON.stringify(health);
      expect(printed).not.toMatch(/e\+308|Infinity|null,"availableSparePercent":-1/);
      expect(health.availableSparePercent === null || health.availableSparePercent >= 0).toBe(true);
      expect(health.temperatureCelsius === null || health.temperatureCelsius < 1000).toBe(true);
    },
  );

  it('reads no captured output as implausible', () => {
    const cases = readdirSync(path.join(FIXTURES, 'smartctl')).filter((name) =>
      existsSync(path.join(FIXTURES, 'smartctl', name, 'stdout.json')),
    );
    expect(cases.length).toBeGreaterThan(20);
    for (const name of cases) {
      expect(parseSmartctlJson(readFixture(`smartctl/${name}/stdout.json`)).implausible, name).toEqual([]);
    }
  });
});
