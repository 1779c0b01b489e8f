import { describe, expect, it, vi } from 'vitest';
import { assessBundle } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { fixture } from '../support/fixtures.js';
import type * as PlanFromAssessment from '../../src/use-cases/plan-from-assessment.js';

// `assess` plans the facts it has just built as they are (use-cases/assess.ts finishAssessment); only a document
// from outside (`plan --input`, a saved assessment) goes through planFromAssessment's deep-partial schema, whose
// construction and walk were ~20 % of a one-disk assessment's CPU time (docs/performance.md, issue 28). The
// document path is replaced by a spy here: an assessment that still went through it would lose its plan.
const documentPath = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../src/use-cases/plan-from-assessment.js', async (importOriginal) => {
  const original = await importOriginal<typeof PlanFromAssessment>();
  return {
    ...original,
    planFromAssessment: () => {
      documentPath.calls += 1;
      throw new Error('assess validated its own facts as a document from outside');
    },
  };
});

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const bundle: Bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));

describe('assess plans its own facts without validating them as a document', () => {
  it('makes the plan without planFromAssessment, and plan --input makes the same plan from its JSON', async () => {
    const envelope = await assessBundle(bundle, clock);
    expect(documentPath.calls).toBe(0);
    expect(envelope.warnings.filter((warning) => warning.message.includes('Planning'))).toEqual([]);
    const { plan, ...facts } = envelope.result!;
    expect(plan).not.toBeNull();
    // The document path (the real one), from the facts as `assess --json` prints them.
    const { planFromAssessment } = await vi.importActual<typeof PlanFromAssessment>(
      '../../src/use-cases/plan-from-assessment.js',
    );
    const fromDocument = planFromAssessment(JSON.parse(JSON.stringify(facts)));
    expect(JSON.parse(JSON.stringify(plan))).toEqual(JSON.parse(JSON.stringify(fromDocument)));
  });
});
