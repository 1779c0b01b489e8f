import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENTS } from '@encplan/core';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';
import { envelopeSchemaErrors } from '../support/schema.js';

// Every command's --json output, ok and error, validated with ajv against the committed schemas/ file its
// own header names. Which documents were seen is checked at the end: a new document needs a case here.
const BUNDLE = 'fixtures/bundles/loop-gpt-ext4-78pct-debian12';
const MACHINE_BUNDLE = 'fixtures/bundles/machine-all-loops-and-virtio-node-missing-debian12';
const SMART = 'fixtures/smartctl/nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3/stdout.json';
const seen = new Map<string, Set<string>>();

function check(envelope: unknown, schema: string, status: 'ok-or-partial' | 'error'): void {
  expect(envelopeSchemaErrors(envelope)).toBeNull();
  const header = envelope as { schema: string; status: string; result: unknown; error: unknown };
  expect(header.schema).toBe(schema);
  if (status === 'error') {
    expect(header).toMatchObject({ status: 'error', result: null });
  } else {
    expect(['ok', 'partial']).toContain(header.status);
    expect(header.error).toBeNull();
  }
  const kinds = seen.get(schema) ?? new Set<string>();
  kinds.add(status);
  seen.set(schema, kinds);
}

const cases: readonly { args: string[]; schema: string; status: 'ok-or-partial' | 'error' }[] = [
  { args: ['assess', '--bundle', BUNDLE, '--json'], schema: 'encplan.assessment', status: 'ok-or-partial' },
  {
    args: ['assess', '--bundle', 'fixtures/no-such-bundle', '--json'],
    schema: 'encplan.assessment',
    status: 'error',
  },
  { args: ['collect', '--json'], schema: 'encplan.assessment', status: 'error' },
  {
    args: ['assess', '--all', '--bundle', 'fixtures/no-such-bundle', '--json'],
    schema: 'encplan.machine-assessment',
    status: 'error',
  },
  {
    args: ['assess', '--all', '--bundle', BUNDLE, '--json'],
    schema: 'encplan.machine-assessment',
    status: 'error',
  },
  { args: ['plan', '--bundle', BUNDLE, '--json'], schema: 'encplan.plan', status: 'ok-or-partial' },
  {
    args: ['plan', '--report', 'fixtures/no-such-report.json', '--json'],
    schema: 'encplan.plan',
    status: 'error',
  },
  { args: ['health', SMART, '--json'], schema: 'encplan.health', status: 'ok-or-partial' },
  { args: ['health', 'fixtures/no-such-file.json', '--json'], schema: 'encplan.health', status: 'error' },
  {
    args: ['benchmark', 'ciphers', '--no-such-flag', '--json'],
    schema: 'encplan.cipher-benchmark',
    status: 'error',
  },
  {
    args: ['benchmark', 'io', '/nonexistent/encplan-target', '--json'],
    schema: 'encplan.benchmark-io',
    status: 'error',
  },
  { args: ['cleanup', '--json'], schema: 'encplan.cleanup', status: 'ok-or-partial' },
  { args: ['cleanup', '--no-such-flag', '--json'], schema: 'encplan.cleanup', status: 'error' },
  { args: ['doctor', '--json'], schema: 'encplan.doctor', status: 'ok-or-partial' },
  { args: ['doctor', '--no-such-flag', '--json'], schema: 'encplan.doctor', status: 'error' },
  { args: ['version', '--json'], schema: 'encplan.version', status: 'ok-or-partial' },
  { args: ['version', '--no-such-flag', '--json'], schema: 'encplan.version', status: 'error' },
  { args: ['schema', '--json'], schema: 'encplan.schema', status: 'ok-or-partial' },
  { args: ['schema', 'plan', '--json'], schema: 'encplan.schema', status: 'ok-or-partial' },
  { args: ['schema', 'no-such-document', '--json'], schema: 'encplan.schema', status: 'error' },
  { args: ['ui', '--port', '70000', '--json'], schema: 'encplan.ui', status: 'error' },
  {
    args: ['fleet', 'report', 'fixtures/assessments', '--json'],
    schema: 'encplan.fleet-report',
    status: 'ok-or-partial',
  },
  {
    args: ['fleet', 'report', 'fixtures/no-such-folder', '--json'],
    schema: 'encplan.fleet-report',
    status: 'error',
  },
  { args: ['help', '--json'], schema: 'encplan.help', status: 'ok-or-partial' },
  { args: ['help', '--no-such-flag', '--json'], schema: 'encplan.help', status: 'error' },
  { args: ['completion', 'bash', '--json'], schema: 'encplan.completion', status: 'ok-or-partial' },
  { args: ['completion', 'tcsh', '--json'], schema: 'encplan.completion', status: 'error' },
  { args: ['man', '--json'], schema: 'encplan.man', status: 'ok-or-partial' },
  { args: ['man', '--no-such-flag', '--json'], schema: 'encplan.man', status: 'error' },
];

describe('every --json output validates against its committed JSON Schema (built binary, ajv)', () => {
  it.each(cases)('encplan $args.0 → $schema ($status)', ({ args, schema, status }) => {
    const run = runCli(args);
    expect(run.stdout.trim().startsWith('{'), run.stderr).toBe(true);
    check(JSON.parse(run.stdout), schema, status);
    expect(run.status === 0, run.stderr).toBe(status !== 'error');
  });

  it('encplan assess --all --bundle → encplan.machine-assessment (partial: one disk failed, exit 4)', () => {
    const run = runCli(['assess', '--all', '--bundle', MACHINE_BUNDLE, '--json']);
    const envelope = JSON.parse(run.stdout) as {
      status: string;
      result: { disks: { device: string; status: string; error: { code: string } | null }[] };
    };
    check(envelope, 'encplan.machine-assessment', 'ok-or-partial');
    expect(envelope.status).toBe('partial');
    expect(envelope.result.disks.map((disk) => [disk.device, disk.status])).toEqual([
      ['/dev/loop0', 'partial'],
      ['/dev/loop1', 'partial'],
      ['/dev/loop2', 'error'],
      ['/dev/vda', 'partial'],
    ]);
    expect(envelope.result.disks[2]?.error?.code).toBe('DEVICE_NOT_FOUND');
    // The document is printed whole, and the exit code is the failed disk's (DEVICE_NOT_FOUND: 4).
    expect(run.status, run.stderr).toBe(4);
  });

  it('encplan ui --json prints its URL as one envelope, then serves until stopped', async () => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'packages/cli/bin/run.js'), 'ui', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.trimEnd().endsWith('}')) {
          resolve(text);
        }
      });
      child.once('exit', (code) => reject(new Error(`encplan ui exited early with ${String(code)}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const envelope = JSON.parse(stdout) as { result: { url: string } };
    check(envelope, 'encplan.ui', 'ok-or-partial');
    expect(envelope.result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  // Real ok outputs captured on a real machine (fixtures/*/PROVENANCE.md): the long-running benchmarks.
  const captured = [
    'fixtures/encplan-benchmark-io',
    'fixtures/encplan-benchmark-ciphers',
    'fixtures/encplan-health',
  ].flatMap((directory) =>
    readdirSync(path.join(REPO_ROOT, directory)).map((name) => path.join(directory, name, 'stdout.json')),
  );
  it.each(captured)('the captured output %s', (file) => {
    const envelope = JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as { schema: string };
    check(envelope, envelope.schema, 'ok-or-partial');
  });
});

afterAll(() => {
  // The wizard's bridge envelopes never reach stdout; desktop tests cover them.
  const notPrinted = new Set(['encplan.bridge']);
  const missing = DOCUMENTS.filter((document) => !notPrinted.has(document.name)).flatMap((document) =>
    ['ok-or-partial', 'error']
      .filter((status) => !(seen.get(document.name)?.has(status) ?? false))
      .map((status) => `${document.name} ${status}`),
  );
  expect(missing, 'a document without an e2e case here').toEqual([]);
});
