/**
 * Large layouts in the text and HTML reports (issue 18): a disk with 128 partitions would print a line per
 * partition in the drive facts, the stack and the discard paths (790 lines). Lists longer than
 * {@link LIST_LIMIT} are summarised: consecutive items that say the same thing apart from their name become
 * one line naming the first and the last. The JSON keeps every item.
 */

/**
 * Items a report lists one by one before it groups them: a terminal screen holds about 24 lines, and GPT's
 * four-partition default layouts (EFI, boot, root, swap) stay far below. A presentation choice, not a domain rule.
 */
export const LIST_LIMIT = 16;

/** Runs shorter than this stay item by item even in a long list (two lines are as short as their summary). */
const MIN_RUN = 3;

/**
 * Maps `items` to lines, merging runs of consecutive items with the same non-null `key` into one line
 * (`many`) when the list is longer than {@link LIST_LIMIT}; every other item gets its own line (`one`).
 */
export function groupRuns<T, R>(
  items: readonly T[],
  key: (item: T) => string | null,
  one: (item: T) => R,
  many: (run: readonly T[]) => R,
): R[] {
  if (items.length <= LIST_LIMIT) {
    return items.map(one);
  }
  const lines: R[] = [];
  let run: T[] = [];
  const flush = (): void => {
    if (run.length >= MIN_RUN) {
      lines.push(many(run));
    } else {
      lines.push(...run.map(one));
    }
    run = [];
  };
  for (const item of items) {
    const itemKey = key(item);
    const runKey = run[0] === undefined ? null : key(run[0]);
    if (itemKey === null || itemKey !== runKey) {
      flush();
    }
    if (itemKey === null) {
      lines.push(one(item));
    } else {
      run.push(item);
    }
  }
  flush();
  return lines;
}

/** "first … last" of a run's names (the run has at least {@link MIN_RUN} items). */
export function spanOf(names: readonly string[]): string {
  return `${names[0] ?? ''} … ${names[names.length - 1] ?? ''}`;
}
