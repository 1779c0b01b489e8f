import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 26 item 2: each target plans itself (targets/<id>/plan.ts, EncryptionTarget.platformPlans), so the plan
// layer asks the registry for the target's hook instead of branching on the platform. This test reads
// packages/core/src/plan/ and fails on a comparison with a platform name; target names are checked by
// target-names.test.ts.
const planFolder = fileURLToPath(new URL('../../src/plan/', import.meta.url));

/**
 * fio-jobs.ts picks fio's I/O engine for the machine the benchmark runs on (libaio, posixaio, windowsaio: fio(1)
 * "ioengine"), a property of the platform's kernel, not of a target's plan.
 */
const EXEMPT = ['fio-jobs.ts'];

const PLATFORMS = ['linux', 'darwin', 'win32'];

/** The ways code compares a value with a name: ===, !==, switch cases, includes(). */
function comparisonsOf(name: string): RegExp[] {
  const quoted = `(['"\`])${name}\\1`;
  return [
    new RegExp(`[!=]==\\s*${quoted}`),
    new RegExp(`${quoted}\\s*[!=]==`),
    new RegExp(`\\bcase\\s+${quoted}\\s*:`),
    new RegExp(`\\.includes\\(\\s*${quoted}\\s*\\)`),
  ];
}

function offenders(): string[] {
  const patterns = PLATFORMS.flatMap(comparisonsOf);
  return readdirSync(planFolder)
    .filter((name) => name.endsWith('.ts') && !EXEMPT.includes(name))
    .flatMap((name) =>
      readFileSync(path.join(planFolder, name), 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const code = line.replace(/\/\/.*$/, '');
          return patterns.some((pattern) => pattern.test(code))
            ? [`plan/${name}:${String(index + 1)}: ${line.trim()}`]
            : [];
        }),
    );
}

describe('the plan layer does not branch on the platform', () => {
  it('has no comparison with a platform name in packages/core/src/plan (a target’s platform plan is its own)', () => {
    expect(offenders()).toEqual([]);
  });

  it('would find one', () => {
    const patterns = PLATFORMS.flatMap(comparisonsOf);
    expect(patterns.some((pattern) => pattern.test("if (platform === 'win32') {"))).toBe(true);
    expect(patterns.some((pattern) => pattern.test('platform !== "linux" ||'))).toBe(true);
  });
});
