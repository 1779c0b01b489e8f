import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('citations in core sources', () => {
  // Every number a rule uses cites its original source (CONTRIBUTING.md); the team's notes file is not one.
  it('never cite the team notes ("reference-facts") instead of the original source', () => {
    const offenders = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /reference-facts/i.test(line) ? [`${path.relative(SRC, file)}:${String(index + 1)}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});
