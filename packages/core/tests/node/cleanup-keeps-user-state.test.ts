import { mkdir, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupLeftovers, createNodeHost, createRunner } from '@encplan/core/node';
import { parseFscryptStatus } from '../../src/parsers/fscrypt/parse-fscrypt-status.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

afterEach(removeTempDirs);

const fixture = (name: string) => readFile(path.join(REPO_ROOT, 'fixtures/fscrypt', name), 'utf8');

describe('encplan cleanup and fscrypt global state (issue 16)', () => {
  it('keeps a global path an old run listed, with what the user added since, and drops the state file', async () => {
    // Stands in for /.fscrypt: an old run created it, then the user added a protector.
    const global = await tempDir('encplan-test-global-');
    await mkdir(path.join(global, 'protectors'));
    await writeFile(path.join(global, 'protectors', 'user-protector'), 'user data\n');
    const stateDirectory = await tempDir('encplan-test-state-');
    const stateFile = path.join(stateDirectory, '999999999-1.json');
    await writeFile(
      stateFile,
      JSON.stringify({
        pid: 999_999_999,
        startedAt: '2026-11-01T00:00:00.000Z',
        pidNamespace: await readlink('/proc/self/ns/pid'),
        resources: [{ kind: 'global-path', path: global }],
      }),
    );
    const host = createNodeHost(createRunner({ searchPath: '', includeSystemDirectories: false }));

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.outcomes).toEqual([
      {
        resource: { kind: 'global-path', path: global },
        outcome: 'kept',
        message: expect.stringContaining('leaves it alone'),
      },
    ]);
    expect(await readFile(path.join(global, 'protectors', 'user-protector'), 'utf8')).toBe('user data\n');
    expect(await readdir(stateDirectory)).toEqual([]);
  });
});

describe('parseFscryptStatus (fscrypt v0.3.3 captures)', () => {
  it('reads the policy id, contents mode, unlocked state and protector of an unlocked directory', async () => {
    expect(parseFscryptStatus(await fixture('status-raw-key-unlocked-debian12-v0.3.3/stdout.txt'))).toEqual({
      encrypted: true,
      policyId: 'acb43f320d33ab770fb4f3375be29b96',
      contentsMode: 'AES_256_XTS',
      policyVersion: 2,
      unlocked: true,
      protectorIds: ['c2fcfc2056400486'],
    });
  });

  it('sees a locked policy as locked', async () => {
    expect(
      parseFscryptStatus(await fixture('status-raw-key-locked-debian12-v0.3.3/stdout.txt')),
    ).toMatchObject({
      encrypted: true,
      unlocked: false,
    });
  });

  it('reads the error of a plain directory, and empty or foreign text, as not encrypted', async () => {
    for (const text of [
      await fixture('status-not-encrypted-debian12-v0.3.3/stderr.txt'),
      '',
      'Policy: zz\n',
    ]) {
      expect(parseFscryptStatus(text)).toMatchObject({
        encrypted: false,
        policyId: null,
        contentsMode: null,
        protectorIds: [],
      });
    }
  });
});
