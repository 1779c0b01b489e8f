import { Flags, type Interfaces } from '@oclif/core';
import {
  buildPlan,
  gateMeetsThreshold,
  okEnvelope,
  PLAN_SCHEMA_NAME,
  PLAN_SCHEMA_VERSION,
  renderPlanScript,
  TOOL_VERSION,
} from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { withCancellation } from '../cancellation.js';
import { ExitCode } from '../exit-codes.js';
import { readPlanInput, type PlanInputSource } from '../plan-input-source.js';
import { renderPlan } from '../render/plan.js';
import { optionsFromFlags, planOptionFlags } from '../plan-flags.js';

/** `encplan plan`: recommendations, predicted cost and the exact commands, from facts. Executes nothing. */
export default class Plan extends EncplanCommand {
  static override summary =
    'Plan encryption settings, spare area and the exact commands to apply them (runs nothing).';
  static override flags = {
    input: Flags.string({
      summary: 'A PlanInput JSON file (see docs/plan-input.md).',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    report: Flags.string({
      summary: 'A saved `encplan assess --json` report.',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    bundle: Flags.string({
      summary: 'A bundle made by `encplan collect`, assessed offline.',
      exactlyOne: ['input', 'report', 'bundle'],
    }),
    ...planOptionFlags,
  };
  protected readonly schemaName = PLAN_SCHEMA_NAME;

  async run(): Promise<void> {
    const { flags } = await this.parse(Plan);
    this.jsonOutput = flags.json;
    const input = await withCancellation((signal) => readPlanInput(sourceFromFlags(flags), signal));
    const plan = buildPlan(input, optionsFromFlags(flags));
    if (flags.json) {
      this.emitJson(
        okEnvelope(
          {
            schema: PLAN_SCHEMA_NAME,
            schemaVersion: PLAN_SCHEMA_VERSION,
            toolVersion: TOOL_VERSION,
            generatedAt: new Date(),
          },
          plan,
          [],
        ),
      );
    } else if (flags.commands) {
      this.log(renderPlanScript(plan.commands, flags.destructive));
    } else {
      this.log(renderPlan(plan, { includeDestructive: flags.destructive }));
    }
    const threshold = flags['fail-on'];
    if (
      (threshold === 'warning' || threshold === 'failing') &&
      gateMeetsThreshold(plan.healthGate, threshold)
    ) {
      if (!flags.json) {
        process.stderr.write(
          `encplan: health gate: the drive is ${plan.healthGate.effectiveVerdict} (--fail-on ${threshold}).\n`,
        );
      }
      this.exit(ExitCode.gateFailed);
    }
  }
}

type PlanFlags = Interfaces.InferredFlags<typeof Plan.flags>;

function sourceFromFlags(flags: PlanFlags): PlanInputSource {
  if (flags.report !== undefined) {
    return { kind: 'report', file: flags.report };
  }
  if (flags.bundle !== undefined) {
    return { kind: 'bundle', directory: flags.bundle };
  }
  // oclif's exactlyOne guarantees one of the three.
  return { kind: 'input', file: flags.input ?? '' };
}

