/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours: "asess" → "assess"). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      const above = rows[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The commands a mistyped one most likely meant: within two edits (one for words of up to four letters), or
 * the commands it is a prefix of, best first. Ids are as typed ("benchmark io"), not oclif's "benchmark:io".
 */
export function suggestCommands(typed: string, commands: readonly string[]): string[] {
  const wanted = typed.trim().toLowerCase();
  if (wanted === '') {
    return [];
  }
  const limit = wanted.length <= 4 ? 1 : 2;
  return commands
    .map((command) => ({ command, score: command.startsWith(wanted) ? 0 : distance(wanted, command) }))
    .filter((candidate) => candidate.score <= limit)
    .sort((left, right) => left.score - right.score || left.command.localeCompare(right.command))
    .map((candidate) => candidate.command);
}
