import { Flags, type Interfaces } from '@oclif/core';
import {
  buildPlan,
  EncplanError,
  gateMeetsThreshold,
  okEnvelope,
  parseByteSize,
  PLAN_SCHEMA_NAME,
  PLAN_SCHEMA_VERSION,
  renderCommandScript,
  TOOL_VERSION,
  type PlanOptions,
} from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { withCancellation } from '../cancellation.js';
import { ExitCode } from '../exit-codes.js';
import { readPlanInput, type PlanInputSource } from '../plan-input-source.js';
import { renderPlan } from '../render/plan.js';

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
    commands: Flags.boolean({ summary: 'Print only the commands, as a POSIX shell script.', default: false }),
    'fail-on': Flags.string({
      summary: 'Exit 5 when the drive health is at or past this verdict.',
      options: ['warning', 'failing'],
    }),
    target: Flags.string({
      summary: 'Encryption tool to plan for (default: luks2 on Linux, apfs on macOS, veracrypt on Windows).',
      options: ['luks2', 'veracrypt', 'apfs'],
    }),
    'threat-model': Flags.string({
      summary: 'Who you defend against; decides discards.',
      options: ['lost-device', 'targeted', 'deniability'],
      default: 'lost-device',
    }),
    workload: Flags.string({
      summary: 'How hard the volume is written; decides the spare area.',
      options: ['desktop', 'server', 'write-heavy'],
      default: 'desktop',
    }),
    'unlock-memory': Flags.string({
      summary: 'RAM of the weakest machine that must unlock, e.g. 2GiB (default: this machine).',
    }),
    'unlock-cores': Flags.integer({
      summary: 'CPU cores of the weakest machine that must unlock (default: this machine).',
      min: 1,
    }),
    'unlock-time': Flags.integer({ summary: 'Target unlock time in milliseconds.', min: 1, default: 2000 }),
    'password-length': Flags.integer({
      summary: 'Passphrase length in characters (VeraCrypt allows a low PIM only from 20).',
      min: 1,
    }),
    'entropy-bits': Flags.string({
      summary:
        'Password entropy in bits for the attacker-cost table (repeatable; default 8 and 10 random a-z0-9 characters, 5 Diceware words).',
      multiple: true,
    }),
    'speed-over-security': Flags.boolean({
      summary: 'Accept AES-128-XTS when the cipher limits the device.',
      default: false,
    }),
    destructive: Flags.boolean({
      summary: 'Leave data-destroying commands uncommented in the script.',
      default: false,
    }),
    'mapping-name': Flags.string({
      summary: 'dm-crypt mapping name for commands and crypttab.',
      default: 'cryptdata',
    }),
    label: Flags.string({ summary: 'Partition and LUKS2 label.', default: 'encplan' }),
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
      this.log(renderCommandScript(plan.commands, flags.destructive));
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

function optionsFromFlags(flags: PlanFlags): PlanOptions {
  const memory = flags['unlock-memory'];
  const memoryBytes = memory === undefined ? null : parseByteSize(memory);
  if (memory !== undefined && memoryBytes === null) {
    throw new EncplanError('INVALID_ARGUMENT', `--unlock-memory ${JSON.stringify(memory)} is not a size.`, {
      hint: 'Use bytes or a binary unit, e.g. 2GiB or 512MiB.',
    });
  }
  const entropyBits = (flags['entropy-bits'] ?? []).map(Number);
  if (entropyBits.some((bits) => !Number.isFinite(bits) || bits <= 0)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `--entropy-bits takes positive numbers, got ${JSON.stringify(flags['entropy-bits'])}.`,
    );
  }
  // The option schema in core validates the enums again; oclif's `options` already limited them.
  return {
    targetTool: (flags.target ?? null) as PlanOptions['targetTool'],
    threatModel: flags['threat-model'] as PlanOptions['threatModel'],
    workload: flags.workload as PlanOptions['workload'],
    unlockMachine: { memoryBytes, cores: flags['unlock-cores'] ?? null },
    unlockTimeMs: flags['unlock-time'],
    passwordLength: flags['password-length'] ?? null,
    ...(entropyBits.length > 0 ? { entropyBits: entropyBits } : {}),
    speedOverSecurity: flags['speed-over-security'],
    mappingName: flags['mapping-name'],
    label: flags.label,
  };
}
