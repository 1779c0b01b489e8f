import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const CLI = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
const encplan = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

afterEach(removeTempDirs);

describe('encplan benchmark io (built CLI)', () => {
  it('answers a missing target with a DEVICE_NOT_FOUND envelope and exit code 4', () => {
    const result = encplan(['benchmark', 'io', '/nonexistent/encplan-target', '--json']);
    expect(result.status).toBe(4);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toMatchObject({
      schema: 'encplan.benchmark-io',
      status: 'error',
      error: { code: 'DEVICE_NOT_FOUND' },
    });
  });

  it('refuses a regular file as target with INVALID_ARGUMENT and exit code 2', async () => {
    const file = path.join(await tempDir('encplan-e2e-'), 'file');
    await writeFile(file, '');
    const result = encplan(['benchmark', 'io', file, '--json']);
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout).error.code).toBe('INVALID_ARGUMENT');
  });

  it('rejects an unknown backend as a usage error', () => {
    const result = encplan(['benchmark', 'io', '--backend', 'bitlocker', '--json']);
    expect(result.status).toBe(2);
  });
});

describe('encplan cleanup (built CLI)', () => {
  it('prints one cleanup envelope', () => {
    const result = encplan(['cleanup', '--json']);
    expect(result.status).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.schema).toBe('encplan.cleanup');
    expect(Array.isArray(envelope.result.outcomes)).toBe(true);
  });
});
