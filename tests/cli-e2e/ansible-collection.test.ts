import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';

/* The collection parses with the ansible-core CI installs (Debian's): playbooks, roles and argument specs. */

const hasAnsible =
  spawnSync('sh', ['-c', 'command -v ansible-playbook && command -v ansible-doc']).status === 0;
if (!hasAnsible && process.env.CI === 'true') {
  throw new Error(
    'ansible-playbook is missing in CI (scripts/setup.sh installs the Debian package ansible).',
  );
}
noteSkip(import.meta.url, hasAnsible ? null : 'needs ansible-playbook (apt-get install ansible)');

// Ansible's own state (~/.ansible) goes to a temp dir of this test, removed afterwards.
const ansibleHome = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-ansible-'));
afterAll(() => rmSync(ansibleHome, { recursive: true, force: true }));
const env = {
  ...process.env,
  ANSIBLE_HOME: ansibleHome,
  ANSIBLE_LOCAL_TEMP: path.join(ansibleHome, 'tmp'),
  ANSIBLE_REMOTE_TEMP: path.join(ansibleHome, 'remote-tmp'),
  ANSIBLE_COLLECTIONS_PATH: path.join(REPO_ROOT, 'ansible'),
  ANSIBLE_NOCOLOR: '1',
  ANSIBLE_LOCALHOST_WARNING: 'False',
  ANSIBLE_INVENTORY_UNPARSED_WARNING: 'False',
};

describe.skipIf(!hasAnsible)('the encplan.fleet collection', () => {
  it.each(['assess', 'apply'])('playbook %s passes ansible-playbook --syntax-check', (name) => {
    const result = spawnSync('ansible-playbook', ['--syntax-check', `encplan.fleet.${name}`], {
      env,
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  });

  it.each(['install', 'assess', 'apply'])(
    'role %s documents its arguments (meta/argument_specs.yml)',
    (role) => {
      const result = spawnSync('ansible-doc', ['-t', 'role', '--json', `encplan.fleet.${role}`], {
        env,
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      const documented = JSON.parse(result.stdout) as Record<
        string,
        { entry_points: { main: { options: Record<string, unknown> } } }
      >;
      expect(
        Object.keys(documented[`encplan.fleet.${role}`]?.entry_points.main.options ?? {}).length,
      ).toBeGreaterThan(1);
    },
  );

  it('refuses to apply without a plan for the device, before touching anything', () => {
    const result = spawnSync(
      'ansible',
      [
        'localhost',
        '-c',
        'local',
        '-m',
        'ansible.builtin.include_role',
        '-a',
        'name=encplan.fleet.apply',
        '-e',
        'encplan_apply_device=/dev/encplan-no-such-disk',
      ],
      { env, encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain('encplan has no plan for /dev/encplan-no-such-disk');
  });
});
