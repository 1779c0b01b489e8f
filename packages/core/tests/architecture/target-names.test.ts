import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENCRYPTION_TARGETS } from '../../src/targets/registry.js';

// Issue 26 item 2: what a target is lives in its own folder (packages/core/src/targets/<id>/), and every other
// module asks the registry (targets/registry.ts). This test reads the sources of the three packages and fails on a
// comparison with a registered target's name outside targets/, and on a map keyed by the whole list of targets.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const targetsFolder = path.join(root, 'packages/core/src/targets');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      return full === targetsFolder || entry.name === 'node_modules' || entry.name === 'dist'
        ? []
        : sourceFiles(full);
    }
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The ways code compares a value with a name: ===, !==, switch cases, includes(). */
function comparisonsOf(name: string): RegExp[] {
  const quoted = `(['"\`])${escape(name)}\\1`;
  return [
    new RegExp(`[!=]==\\s*${quoted}`),
    new RegExp(`${quoted}\\s*[!=]==`),
    new RegExp(`\\bcase\\s+${quoted}\\s*:`),
    new RegExp(`\\.includes\\(\\s*${quoted}\\s*\\)`),
  ];
}

/** Maps keyed by every target (or every plan target, every benchmark backend) restate the registry. */
const WHOLE_LIST_MAP = /Record<\s*(TargetTool|PlanTargetId|TargetId|BackendId|Plan\['targetTool'\])\b/;

function offenders(files: readonly string[], names: readonly string[]): string[] {
  const patterns = names.flatMap((name) => comparisonsOf(name).map((pattern) => ({ name, pattern })));
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const code = line.replace(/\/\/.*$/, '');
        const hit =
          patterns.find(({ pattern }) => pattern.test(code))?.name ??
          (WHOLE_LIST_MAP.test(code) ? 'a map over the target list' : null);
        return hit === null
          ? []
          : [`${path.relative(root, file)}:${String(index + 1)} (${hit}): ${line.trim()}`];
      }),
  );
}

const ids = ENCRYPTION_TARGETS.map((target) => target.id);

describe('no code outside packages/core/src/targets compares a target name', () => {
  it('reads every registered target', () => {
    expect(ids).toEqual(['fscrypt', 'luks2', 'veracrypt', 'apfs', 'bitlocker', 'luks2-opal']);
  });

  it('finds none in core, cli and desktop sources', () => {
    const files = ['core', 'cli', 'desktop'].flatMap((name) =>
      sourceFiles(path.join(root, 'packages', name, 'src')),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(offenders(files, ids)).toEqual([]);
  });

  it.each([
    "if (tool === 'veracrypt') {",
    "if ('luks2' !== options.targetTool) {",
    '    case "apfs":',
    "if (backends.includes('fscrypt')) {",
    'if (target === `luks2-opal`) {',
    'const NAMES: Readonly<Record<TargetTool, string>> = {',
  ])('catches %s (the check itself can fail)', (line) => {
    const matched =
      ids.some((id) => comparisonsOf(id).some((pattern) => pattern.test(line))) || WHOLE_LIST_MAP.test(line);
    expect(matched).toBe(true);
  });

  it.each(["argv: ['veracrypt', '-t']", "const kind = 'luks2-keyslot' === x;", "{ tool: 'fscrypt', args }"])(
    'lets %s pass (a name used, not compared)',
    (line) => {
      expect(ids.some((id) => comparisonsOf(id).some((pattern) => pattern.test(line)))).toBe(false);
    },
  );
});
