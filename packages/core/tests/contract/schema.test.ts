import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assessmentDocument,
  DOCUMENTS,
  findDocument,
  parseWithoutCompiling,
  planFromAssessment,
  TOOL_VERSION,
} from '@encplan/core';

const root = new URL('../../../../', import.meta.url);

describe('the committed JSON Schemas', () => {
  it.each(DOCUMENTS.map((document) => [document.name, document] as const))(
    '%s is exactly what the code generates (run `npm run schema` after changing the contract)',
    (_name, document) => {
      const committed: unknown = JSON.parse(readFileSync(new URL(document.schemaFile, root), 'utf8'));
      expect(committed).toEqual(JSON.parse(JSON.stringify(document.jsonSchema())));
    },
  );

  it('schemas/ holds exactly one file per document (no stale file of a removed or renamed document)', () => {
    const files = readdirSync(new URL('schemas/', root))
      .map((file) => `schemas/${file}`)
      .sort();
    expect(files).toEqual(DOCUMENTS.map((document) => document.schemaFile).sort());
  });

  it('every document has its own name and file', () => {
    expect(new Set(DOCUMENTS.map((document) => document.name)).size).toBe(DOCUMENTS.length);
    expect(new Set(DOCUMENTS.map((document) => document.schemaFile)).size).toBe(DOCUMENTS.length);
  });

  it('finds a document by full or short name, and nothing for an unknown one', () => {
    expect(findDocument('encplan.benchmark-io')?.schemaFile).toBe('schemas/benchmark-io.v1.json');
    expect(findDocument('plan')?.name).toBe('encplan.plan');
    expect(findDocument('no-such-document')).toBeNull();
  });
});

describe('the envelope builders of a document', () => {
  const version = findDocument('version');
  it('build ok and error envelopes that its own zod schema accepts', () => {
    expect(version).not.toBeNull();
    const ok = version!.ok(
      { version: TOOL_VERSION, platform: 'linux', arch: 'x64', node: 'v22.23.3' },
      [],
      new Date('2026-01-02T03:04:05Z'),
    );
    expect(version!.envelope.parse(ok)).toEqual({
      schema: 'encplan.version',
      schemaVersion: [1, 0],
      toolVersion: TOOL_VERSION,
      generatedAt: '2026-01-02T03:04:05.000Z',
      status: 'ok',
      result: { version: TOOL_VERSION, platform: 'linux', arch: 'x64', node: 'v22.23.3' },
      warnings: [],
      error: null,
    });
    const failed = version!.error(new Error('boom'));
    expect(version!.envelope.parse(failed)).toMatchObject({
      status: 'error',
      result: null,
      error: { code: 'INTERNAL_ERROR' },
    });
  });
});

describe('schemas built on first use and parsed without compiling (start-up, issue 18)', () => {
  const assessment: unknown = JSON.parse(
    readFileSync(new URL('fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json', root), 'utf8'),
  );

  it('each document builds its envelope schema once', () => {
    for (const document of DOCUMENTS) {
      expect(document.envelope, document.name).toBe(document.envelope);
    }
  });

  it('parses an assessment and plans from it alike with and without compiling, and rejects alike', () => {
    const broken = { ...(assessment as Record<string, unknown>), status: 'maybe' };
    const compiled = assessmentDocument.envelope.parse(assessment);
    const plan = planFromAssessment(assessment);
    parseWithoutCompiling();
    try {
      expect(assessmentDocument.envelope.parse(assessment)).toEqual(compiled);
      expect(planFromAssessment(assessment)).toEqual(plan);
      expect(assessmentDocument.envelope.safeParse(broken).success).toBe(false);
    } finally {
      z.config({ jitless: false });
    }
    expect(assessmentDocument.envelope.safeParse(broken).success).toBe(false);
  });
});

describe('TOOL_VERSION', () => {
  it('matches the version of every package', () => {
    for (const manifest of [
      'package.json',
      'packages/core/package.json',
      'packages/cli/package.json',
      'packages/desktop/package.json',
    ]) {
      expect(
        (JSON.parse(readFileSync(new URL(manifest, root), 'utf8')) as { version: string }).version,
        manifest,
      ).toBe(TOOL_VERSION);
    }
  });
});
