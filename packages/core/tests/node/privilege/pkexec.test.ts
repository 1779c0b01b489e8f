import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectPrivilege } from '@encplan/core/node';
import { POLKIT_ACTION_ID, runPrivilegedHelper } from '../../../src/node/privilege/pkexec.js';
import { fakeToolsPerTest } from '../../../../../tests/support/fake-tools.js';

const { runnerWith, fakes } = fakeToolsPerTest();

describe('detectPrivilege', () => {
  it('needs nothing when encplan already runs as root', async () => {
    await expect(detectPrivilege(await runnerWith({}), 0)).resolves.toEqual({
      method: 'already-root',
      available: true,
      reason: null,
    });
  });

  it('offers pkexec when it is installed', async () => {
    await expect(detectPrivilege(await runnerWith({ pkexec: [] }), 1000)).resolves.toEqual({
      method: 'pkexec',
      available: true,
      reason: null,
    });
  });

  it('says plainly that privileged work is unavailable when pkexec is missing', async () => {
    const status = await detectPrivilege(await runnerWith({}), 1000);
    expect(status).toMatchObject({ method: 'none', available: false });
    expect(status.reason).toContain('pkexec (polkit) is not installed');
  });
});

describe('runPrivilegedHelper', () => {
  it('starts only the helper through pkexec, with the arguments as an array', async () => {
    const runner = await runnerWith({ pkexec: [{ stdout: 'helper ran\n' }] });
    const output = await runPrivilegedHelper(
      runner,
      '/usr/lib/encplan/encplan-helper',
      ['collect', '--', '/dev/sda; rm -rf /'],
      { timeoutMs: 10_000 },
    );
    expect(output.stdout).toBe('helper ran\n');
    const calls = await fakes().calls();
    expect(calls.map((call) => call.argv)).toEqual([
      ['--disable-internal-agent', '/usr/lib/encplan/encplan-helper', 'collect', '--', '/dev/sda; rm -rf /'],
    ]);
  });

  it.each([126, 127])(
    'turns pkexec exit status %d (dismissed / not authorized) into PERMISSION_DENIED',
    async (exitCode) => {
      const runner = await runnerWith({ pkexec: [{ exitCode, stderr: 'Not authorized' }] });
      await expect(
        runPrivilegedHelper(runner, '/usr/lib/encplan/encplan-helper', [], { timeoutMs: 10_000 }),
      ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    },
  );

  it('refuses a relative helper path, which pkexec could not match against its policy', async () => {
    const runner = await runnerWith({ pkexec: [] });
    await expect(
      runPrivilegedHelper(runner, 'encplan-helper', [], { timeoutMs: 10_000 }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await fakes().calls()).toEqual([]);
  });
});

describe('the polkit action', () => {
  it('is the one the shipped policy file declares', () => {
    const policy = readFileSync(
      new URL('../../../../desktop/resources/org.encplan.helper.policy', import.meta.url),
      'utf8',
    );
    expect(policy).toContain(`<action id="${POLKIT_ACTION_ID}">`);
  });
});
