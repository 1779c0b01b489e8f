import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assessmentJsonSchema, TOOL_VERSION } from '@encplan/core';

const root = new URL('../../../../', import.meta.url);

describe('the committed JSON Schema', () => {
  it('is exactly what the code generates (run `npm run schema` after changing the contract)', () => {
    const committed: unknown = JSON.parse(readFileSync(new URL('schemas/assessment.v1.json', root), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(assessmentJsonSchema())));
  });
});

describe('TOOL_VERSION', () => {
  it('matches the version of every package', () => {
    for (const manifest of ['package.json', 'packages/core/package.json', 'packages/cli/package.json', 'packages/desktop/package.json']) {
      expect((JSON.parse(readFileSync(new URL(manifest, root), 'utf8')) as { version: string }).version, manifest).toBe(TOOL_VERSION);
    }
  });
});
