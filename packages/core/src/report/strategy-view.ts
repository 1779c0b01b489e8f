import { formatBytes, formatDuration } from '../domain/units.js';
import type { Strategy } from '../rules/strategy.js';

/** What each strategy is called for people. */
const STRATEGY_TITLE: Readonly<Record<Strategy['kind'], string>> = {
  'fresh-format': 'Format fresh',
  'in-place': 'Encrypt in place',
  reinstall: 'Reinstall encrypted',
  'nothing-to-do': 'Nothing to do: already encrypted',
  undetermined: 'Undetermined: the disk is not known',
  'replace-first': 'Back up and replace first: the drive is failing',
};

const PRECONDITION_MARK = {
  met: 'ok',
  'not-met': 'NOT MET',
  unknown: 'unknown',
  confirm: 'confirm',
} as const;

/** The plan's strategy for every view: a headline, the reason, then one line per fact (preconditions, cost, steps). */
export interface StrategyView {
  readonly kind: Strategy['kind'];
  readonly title: string;
  readonly reason: string;
  readonly lines: readonly string[];
}

/** Turns the strategy into the headline and lines the text, HTML and CLI views print first. Pure. */
export function toStrategyView(strategy: Strategy): StrategyView {
  const writes = strategy.driveWrites;
  const time = strategy.timeEstimate;
  const lines = [
    ...strategy.preconditions.map(
      (precondition) =>
        `[${PRECONDITION_MARK[precondition.status]}] ${precondition.id}: ${precondition.detail}`,
    ),
    `Drive writes: ${writes.bytes === null ? 'unknown' : formatBytes(writes.bytes)}${writes.percentOfRatedEndurance === null ? '' : ` (${String(writes.percentOfRatedEndurance)} % of rated endurance)`}. ${writes.basis}`,
    `Time: ${time.seconds === null ? '' : `${formatDuration(time.seconds)}. `}${time.basis}`,
    ...strategy.differences.map(
      (difference) =>
        `Differs: ${difference.setting} is ${String(difference.current)}, the plan says ${String(difference.planned)}`,
    ),
    ...strategy.steps.map((step, index) => `Step ${String(index + 1)}: ${step}`),
  ];
  return {
    kind: strategy.kind,
    title: `${STRATEGY_TITLE[strategy.kind]}${strategy.offline ? ' (from a live/rescue system)' : ''}`,
    reason: strategy.reason,
    lines,
  };
}
