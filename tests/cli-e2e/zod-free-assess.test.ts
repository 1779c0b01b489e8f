import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type FakeCase } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';
import { assessWithFakeTools, NO_READABLE_WHOLE_DISK, readableWholeDisk } from '../support/whole-disk.js';

// Issue 28: a one-disk `assess DISK --json` (and `--all`) given valid options builds no zod schema at all, in the
// bundled CLI as users run it. The plan options and flag values are checked by their definitions' rules without
// zod (core rules/flag-definitions.ts, rules/plan-options.ts), the plan reads plain lists, not enum schemas; zod
// stays the contract's one definition (JSON Schema, the words of a refusal). tests/support/module-trace.mjs counts
// every zod instance the run constructs (zod gives each its `_zod` internals with Object.defineProperty).
// The device only has to be a whole disk this user may read: the fake tools answer for it with the captures of a
// real loop disk (fixtures/bundles/loop-gpt-ext4-78pct-debian12), renamed to it.
const disk = readableWholeDisk();
const skipReason = noteSkip(import.meta.url, disk === undefined ? NO_READABLE_WHOLE_DISK : null);
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-zod-free-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Capture {
  readonly kind: string;
  readonly tool?: string;
  readonly argv?: readonly string[];
  readonly output?: { readonly exitCode: number; readonly stdout: string };
}

/** The fixture's tool calls as fake tools of `device`: each call as captured, then its tool's first answer for any other. */
function fakeCasesFor(device: string): Record<string, FakeCase[]> {
  const name = path.basename(device);
  const deviceNumber = readFileSync(`/sys/block/${name}/dev`, 'utf8').trim();
  const renamed = (text: string) => text.replaceAll('loop0', name).replaceAll('"7:0"', `"${deviceNumber}"`);
  const bundle = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12/bundle.json'), 'utf8'),
  ) as { captures: Capture[] };
  const cases: Record<string, FakeCase[]> = {};
  for (const { kind, tool, argv, output } of bundle.captures) {
    if (kind === 'command' && tool !== undefined && argv !== undefined && output !== undefined) {
      const answer = { stdout: renamed(output.stdout), exitCode: output.exitCode };
      (cases[tool] ??= []).push({ args: argv.map(renamed), ...answer });
    }
  }
  for (const list of Object.values(cases)) {
    list.push({ ...list.find((answer) => !answer.args?.includes('--version')), args: null });
  }
  return cases;
}

/** One run of the bundled CLI with the fake tools first on PATH: its JSON, the zod instances it built, its files. */
async function assess(args: readonly string[]) {
  const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/module-trace.mjs')).href;
  const { run, lines, fakes } = await assessWithFakeTools(args, fakeCasesFor(disk ?? ''), {
    work,
    hook,
    variable: 'ENCPLAN_MODULE_TRACE',
  });
  await fakes.remove();
  return {
    status: run.status,
    stderr: run.stderr,
    document: JSON.parse(run.stdout) as { status: string; result: Record<string, unknown> },
    zodInstances: Number(/^zod:instances (\d+)$/m.exec(lines.join('\n'))?.[1]),
    direct: lines.some((line) => line.endsWith('/bundle/direct.js')),
  };
}

const EVERY_PLAN_FLAG = [
  ['--target', 'luks2'],
  ['--threat-model', 'targeted'],
  ['--workload', 'server'],
  ['--unlock-memory', '1GiB'],
  ['--unlock-cores', '2'],
  ['--unlock-time', '3000'],
  ['--password-length', '24'],
  ['--entropy-bits', '64.6'],
  ['--entropy-bits', '80'],
  ['--target-spare', '10'],
  ['--target-spare-base', 'raw'],
  ['--mapping-name', 'data_1'],
  ['--label', 'home'],
  ['--speed-over-security'],
  ['--encrypted-boot'],
].flat();

describe.skipIf(skipReason !== null)('assess DISK --json builds no zod schema (issue 28)', () => {
  const device = disk ?? '';

  it.each([
    ['the defaults', [device]],
    ['every plan flag given', [device, ...EVERY_PLAN_FLAG]],
    ['--all', ['--all']],
  ])('%s: a plan, through the direct path, and no zod instance', async (_name, args) => {
    const run = await assess(args);
    expect({ status: run.status, direct: run.direct, stderr: run.stderr }).toEqual({
      status: 0,
      direct: true,
      stderr: '',
    });
    const assessment = (
      args.includes('--all')
        ? (run.document.result.disks as { assessment: Record<string, unknown> }[])[0]?.assessment
        : run.document.result
    ) as { plan?: { devicePath: string; workload: string } } | undefined;
    expect(assessment?.plan?.devicePath).toBe(device);
    expect(assessment?.plan?.workload).toBe(args.includes('server') ? 'server' : 'desktop');
    expect(run.zodInstances).toBe(0);
  });
});
