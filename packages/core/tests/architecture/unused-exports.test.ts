import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/check-unused-exports.mjs runs in `npm run ci` over the whole repository; here it reads small trees
// whose answer is known, so that a checker that stopped seeing anything would fail.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const checker = path.join(root, 'scripts', 'check-unused-exports.mjs');
const trees: string[] = [];

function tree(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'encplan-unused-exports-'));
  trees.push(folder);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

function check(folder: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [checker, folder], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const folder of trees.splice(0)) {
    rmSync(folder, { recursive: true, force: true });
  }
});

describe('check-unused-exports', () => {
  it('names an exported value no other file imports, and passes the ones that are imported', () => {
    const folder = tree({
      'packages/core/src/a.ts':
        'export const used = 1;\nexport function unusedHelper(): number {\n  return used;\n}\n',
      'packages/core/src/b.ts': "import { used } from './a.js';\nexport const twice = used * 2;\n",
      'packages/core/src/index.ts': "export { twice } from './b.js';\n",
    });
    const { status, output } = check(folder);
    expect(status).toBe(1);
    expect(output).toContain('packages/core/src/a.ts:2 unusedHelper');
    expect(output).not.toMatch(/\bused\b\n/);
    expect(output).not.toContain('twice');
  });

  it('counts type imports, namespace imports and dynamic imports as uses; keeps types that name a signature', () => {
    const folder = tree({
      'packages/core/src/types.ts':
        'export interface Shape {\n  side: number;\n}\nexport type Unused = string;\n',
      'packages/core/src/area.ts':
        "import type { Shape } from './types.js';\nexport interface Options {\n  scale: number;\n}\nexport function area(shape: Shape, options: Options): number {\n  return shape.side * options.scale;\n}\n",
      'packages/core/src/all.ts': 'export const one = 1;\nexport const two = 2;\n',
      'packages/core/src/lazy.ts': 'export const later = 3;\n',
      'packages/core/src/index.ts':
        "import * as all from './all.js';\nexport { area } from './area.js';\nexport const sum = all.one + all.two;\nexport const load = () => import('./lazy.js');\n",
    });
    const { status, output } = check(folder);
    expect(output).toContain('packages/core/src/types.ts:4 Unused');
    expect(output).not.toMatch(/ (Shape|Options|one|two|later)\n/);
    expect(status).toBe(1);
  });

  it('passes this repository', () => {
    const { status, output } = check(root);
    expect(output).toMatch(/^unused exports: none/);
    expect(status).toBe(0);
  });
});
