import { Flags, type Interfaces } from '@oclif/core';
import {
  assertDestructiveAllowed,
  planDocument,
  planFromAssessment,
  renderPlanCommandsScript,
  toPlanDocumentView,
} from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { withCancellation } from '../cancellation.js';
import { exitIfVerdictFails } from '../verdict-exit.js';
import { readAssessmentDocument, type AssessmentSource } from '../assessment-source.js';
import { planOptionFlags } from '../plan-flags.js';
import { optionsFromFlags } from '../plan-options.js';

/** `encplan plan`: recommendations, predicted cost and the exact commands, from facts. Executes nothing. */
export default class Plan extends EncplanCommand {
  static override summary =
    'Plan encryption settings, spare area and the exact commands to apply them (runs nothing).';
  static override flags = {
    input: Flags.string({
      summary:
        'An assessment: `encplan assess --json` output, its bare result, or either with sections left out (see docs/plan-input.md).',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    report: Flags.string({
      summary: 'A saved `encplan assess --json` report (the same as --input).',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    bundle: Flags.string({
      summary: 'A bundle made by `encplan collect`, assessed offline.',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    ...planOptionFlags,
  };
  readonly document = planDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Plan);
    const document = await withCancellation((signal) =>
      readAssessmentDocument(sourceFromFlags(flags), signal),
    );
    const plan = planFromAssessment(document, optionsFromFlags(flags));
    if (flags.destructive) {
      // Refused before anything is printed: no flag overrides the in-use invariants (exit 4).
      assertDestructiveAllowed(plan);
    }
    // The plan's part of the assessment view model: the same labels, units and markers as `encplan assess`.
    const view = toPlanDocumentView(plan, { includeDestructive: flags.destructive });
    if (flags.json) {
      this.emitOkEnvelope(plan);
    } else if (flags.commands) {
      this.log(renderPlanCommandsScript(view.plan));
    } else {
      this.logDocumentText(view);
    }
    exitIfVerdictFails(plan.healthGate.effectiveVerdict, flags, 'health gate');
  }
}

type PlanFlags = Interfaces.InferredFlags<typeof Plan.flags>;

function sourceFromFlags(flags: PlanFlags): AssessmentSource {
  if (flags.bundle !== undefined) {
    return { kind: 'bundle', directory: flags.bundle };
  }
  // oclif's exactlyOne guarantees one of the three; --report and --input read the same documents.
  return { kind: 'file', file: flags.report ?? flags.input ?? '' };
}
