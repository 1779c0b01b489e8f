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

type Case = { args: string[]; schema: string; status: 'ok-or-partial' | 'error' };
/** `encplan ARGS --json` prints an ok or partial `encplan.SCHEMA` envelope. */
const ok = (schema: string, ...args: string[]): Case => ({
  args: [...args, '--json'],
  schema: `encplan.${schema}`,
  status: 'ok-or-partial',
});
/** `encplan ARGS --json` prints an `encplan.SCHEMA` error envelope. */
const error = (schema: string, ...args: string[]): Case => ({ ...ok(schema, ...args), status: 'error' });

const cases: readonly Case[] = [
  ok('assessment', 'assess', '--bundle', BUNDLE),
  error('assessment', 'assess', '--bundle', 'fixtures/no-such-bundle'),
  error('assessment', 'collect'),
  error('machine-assessment', 'assess', '--all', '--bundle', 'fixtures/no-such-bundle'),
  error('machine-assessment', 'assess', '--all', '--bundle', BUNDLE),
  ok('plan', 'plan', '--bundle', BUNDLE),
  error('plan', 'plan', '--report', 'fixtures/no-such-report.json'),
  ok('health', 'health', SMART),
  error('health', 'health', 'fixtures/no-such-file.json'),
  error('cipher-benchmark', 'benchmark', 'ciphers', '--no-such-flag'),
  error('benchmark-io', 'benchmark', 'io', '/nonexistent/encplan-target'),
  ok('cleanup', 'cleanup'),
  error('cleanup', 'cleanup', '--no-such-flag'),
  ok('doctor', 'doctor'),
  error('doctor', 'doctor', '--no-such-flag'),
  ok('version', 'version'),
  error('version', 'version', '--no-such-flag'),
  ok('schema', 'schema'),
  ok('schema', 'schema', 'plan'),
  error('schema', 'schema', 'no-such-document'),
  error('ui', 'ui', '--port', '70000'),
  ok('fleet-report', 'fleet', 'report', 'fixtures/assessments'),
  error('fleet-report', 'fleet', 'report', 'fixtures/no-such-folder'),
  ok('help', 'help'),
  error('help', 'help', '--no-such-flag'),
  ok('completion', 'completion', 'bash'),
  error('completion', 'completion', 'tcsh'),
  ok('man', 'man'),
  error('man', 'man', '--no-such-flag'),
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
