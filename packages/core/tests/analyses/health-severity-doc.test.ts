import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ATA_COUNTER_RULES,
  MIN_PERCENT_FOR_LIFE_ESTIMATE,
  NVME_MEDIA_ERRORS_RULE,
  SCSI_GROWN_DEFECTS_RULE,
  SCSI_UNCORRECTED_RULE,
  WEAR_SIGNAL_TOLERANCE_POINTS,
  type CounterRule,
} from '../../src/analyses/health.js';

const DOC = readFileSync(
  fileURLToPath(new URL('../../../../docs/health-severity.md', import.meta.url)),
  'utf8',
);

/** The "warning from" and "failing from" cells of the rule's row in docs/health-severity.md. */
function documented(rule: string): { warningAt: string; failingAt: string } | null {
  const row = DOC.split('\n').find((line) => line.startsWith(`| \`${rule}\``));
  if (row === undefined) {
    return null;
  }
  const cells = row.split('|').map((cell) => cell.trim());
  return { warningAt: cells[6] ?? '', failingAt: cells[7] ?? '' };
}

const cell = (value: number | null): string => (value === null ? '—' : String(value));

describe('docs/health-severity.md', () => {
  const rules: CounterRule[] = [
    ...ATA_COUNTER_RULES,
    NVME_MEDIA_ERRORS_RULE,
    SCSI_UNCORRECTED_RULE,
    SCSI_GROWN_DEFECTS_RULE,
  ];
  for (const rule of rules) {
    it(`documents ${rule.rule} with the thresholds the code uses`, () => {
      expect(documented(rule.rule)).toEqual({
        warningAt: cell(rule.warningAt),
        failingAt: cell(rule.failingAt),
      });
    });
  }

  it('states the wear-signal tolerance and the least wear a life estimate needs', () => {
    const flat = DOC.replace(/\s+/g, ' ');
    expect(flat).toContain(`more than **${WEAR_SIGNAL_TOLERANCE_POINTS} percentage points**`);
    expect(flat).toContain(`at least **${MIN_PERCENT_FOR_LIFE_ESTIMATE} %** is used`);
  });
});
