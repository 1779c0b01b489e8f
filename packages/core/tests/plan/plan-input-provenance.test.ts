import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planFactsSchema } from '../../src/use-cases/plan-from-assessment.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../fixtures/plan-inputs',
);
const provenance = readFileSync(path.join(FIXTURES, 'PROVENANCE.md'), 'utf8');
const rows = provenance
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| case') && !line.startsWith('|---'))
  .map((line) => line.slice(2, -2).split(' | '))
  .map(([caseName, field, file, line, text]) => ({
    caseName: caseName ?? '',
    field: field ?? '',
    file: file ?? '',
    line: Number(line),
    text: text ?? '',
  }));

describe('plan-input fixtures', () => {
  const cases = readdirSync(FIXTURES).filter((name) => name.endsWith('.json'));

  it.each(cases)('%s is a valid partial assessment with a provenance entry', (name) => {
    const input: unknown = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
    expect(planFactsSchema().safeParse(input).success).toBe(true);
    expect(rows.some((row) => row.caseName === name.replace(/\.json$/, ''))).toBe(true);
  });

  it.each(rows.filter((row) => row.file !== '-'))(
    '$caseName: $field is on line $line of $file',
    ({ file, line, text }) => {
      const lines = readFileSync(path.join(FIXTURES, 'sources', file), 'utf8').split('\n');
      expect(lines[line - 1]).toContain(text);
    },
  );
});
