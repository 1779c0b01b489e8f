import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

// Every command that names a file or a device, given every kind of bad path (issue 16). Each must end with a
// documented exit code, an error envelope with the right code, and no stack trace; none may block.
const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-bad-input-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const BAD = {
  missing: path.join(scratch, 'missing'),
  directory: path.join(scratch, 'directory'),
  fifo: path.join(scratch, 'fifo'),
  'character device': '/dev/zero',
  'too large': path.join(scratch, 'large.json'),
  'too long a name': path.join(scratch, 'n'.repeat(300)),
  'symlink loop': path.join(scratch, 'loop-a'),
  unreadable: path.join(scratch, 'unreadable.json'),
} as const;
type Bad = keyof typeof BAD;

mkdirSync(BAD.directory);
execFileSync('mkfifo', [BAD.fifo]);
// Sparse: 64 MiB of size without 64 MiB of disk.
writeFileSync(BAD['too large'], '');
truncateSync(BAD['too large'], 64 * 1024 * 1024);
symlinkSync(path.join(scratch, 'loop-b'), BAD['symlink loop']);
symlinkSync(BAD['symlink loop'], path.join(scratch, 'loop-b'));
writeFileSync(BAD.unreadable, '{}');
chmodSync(BAD.unreadable, 0o000);
const root = process.getuid?.() === 0;
if (root) {
  process.stdout.write('bad-input: skipping the unreadable-file cases: root reads a mode 000 file\n');
}

type Expectation = readonly [code: string, exit: number];
const USAGE: Expectation = ['INVALID_ARGUMENT', 2];
const UNSUPPORTED: Expectation = ['DEVICE_UNSUPPORTED', 4];
/** What each bad path must give: read as a file (a JSON file, a bundle, a report) and opened as a device. */
const EXPECTED: Record<Bad, { file: Expectation; device: Expectation }> = {
  missing: { file: USAGE, device: ['DEVICE_NOT_FOUND', 4] },
  directory: { file: USAGE, device: UNSUPPORTED },
  fifo: { file: USAGE, device: UNSUPPORTED },
  'character device': { file: USAGE, device: UNSUPPORTED },
  'too large': { file: USAGE, device: UNSUPPORTED },
  'too long a name': { file: USAGE, device: USAGE },
  'symlink loop': { file: USAGE, device: USAGE },
  unreadable: { file: ['PERMISSION_DENIED', 3], device: UNSUPPORTED },
};
function column(kind: 'file' | 'device'): Record<Bad, Expectation> {
  return Object.fromEntries(
    (Object.keys(EXPECTED) as Bad[]).map((bad) => [bad, EXPECTED[bad][kind]]),
  ) as Record<Bad, Expectation>;
}
const FILE_READ = column('file');
const DEVICE = column('device');

const COMMANDS: readonly {
  name: string;
  args: (bad: string) => string[];
  expect: Record<Bad, Expectation>;
  skip?: readonly Bad[];
}[] = [
  { name: 'health FILE', args: (bad) => ['health', bad], expect: FILE_READ },
  {
    name: 'assess --bundle',
    args: (bad) => ['assess', '--bundle', bad],
    expect: { ...FILE_READ, directory: ['BUNDLE_INVALID', 2] },
  },
  {
    name: 'plan --bundle',
    args: (bad) => ['plan', '--bundle', bad],
    expect: { ...FILE_READ, directory: ['BUNDLE_INVALID', 2] },
  },
  { name: 'plan --report', args: (bad) => ['plan', '--report', bad], expect: FILE_READ },
  { name: 'plan --input', args: (bad) => ['plan', '--input', bad], expect: FILE_READ },
  { name: 'ui --assessment', args: (bad) => ['ui', '--assessment', bad], expect: FILE_READ },
  { name: 'assess DEVICE', args: (bad) => ['assess', bad], expect: DEVICE },
  {
    name: 'collect DEVICE',
    args: (bad) => ['collect', bad, '--out', path.join(scratch, 'never-written')],
    expect: DEVICE,
  },
  {
    name: 'benchmark io TARGET',
    args: (bad) => ['benchmark', 'io', bad],
    // A directory is a valid target (it measures there); a regular file, a FIFO or a device without
    // --destructive is refused as an argument.
    expect: { ...DEVICE, fifo: USAGE, 'character device': USAGE, 'too large': USAGE, unreadable: USAGE },
    skip: ['directory'],
  },
];

const cases = COMMANDS.flatMap((command) =>
  (Object.keys(BAD) as Bad[])
    .filter((bad) => !(command.skip ?? []).includes(bad) && !(bad === 'unreadable' && root))
    .map((bad) => ({
      command: command.name,
      bad,
      args: command.args(BAD[bad]),
      code: command.expect[bad][0],
      exit: command.expect[bad][1],
    })),
);

describe('every command that names a file or a device, given a bad path (built binary)', () => {
  it.each(cases)('$command with a $bad path: $code, exit $exit, no stack trace', ({ args, code, exit }) => {
    const run = runCli([...args, '--json'], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(exit);
    const document = JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } };
    expect(document).toMatchObject({ status: 'error', error: { code } });
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(document.error.message).not.toMatch(/ENAMETOOLONG|ELOOP|EISDIR/);
  });

  it('never writes the output directory of a refused collect', () => {
    expect(() => execFileSync('test', ['-e', path.join(scratch, 'never-written')])).toThrow();
  });
});
