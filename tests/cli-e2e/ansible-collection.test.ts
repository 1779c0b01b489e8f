import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  describe('the assess role takes the plan options of encplan assess (issue 25 item 4)', () => {
    // A user's encplan prefix (bin/encplan is the checkout's), a bundle to assess, and folders of this test.
    const work = path.join(ansibleHome, 'role-assess');
    const prefix = path.join(work, 'prefix');
    const playbook = path.join(work, 'assess.yml');
    const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
    const output = path.join(work, 'out');
    mkdirSync(path.join(prefix, 'bin'), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'packages/cli/bin/run.js'), path.join(prefix, 'bin/encplan'));
    writeFileSync(
      playbook,
      '- hosts: localhost\n  connection: local\n  gather_facts: false\n  roles: [encplan.fleet.assess]\n',
    );
    const assessWith = (...extra: string[]) =>
      spawnSync(
        'ansible-playbook',
        [
          playbook,
          ...['-e', `encplan_prefix=${prefix}`, '-e', `encplan_bundle=${bundle}`],
          ...['-e', `encplan_facts_dir=${path.join(work, 'facts')}`, '-e', `encplan_output_dir=${output}`],
          ...['-e', `encplan_fetch_dir=${path.join(work, 'fetched')}`],
          ...extra.flatMap((value) => ['-e', value]),
        ],
        { env, encoding: 'utf8' },
      );

    it('passes each plan option to encplan assess: the published plan follows them', () => {
      const run = assessWith(
        'encplan_unlock_memory=1GiB',
        'encplan_unlock_cores=2',
        'encplan_workload=write-heavy',
        'encplan_mapping_name=fleetdata',
        '{"encplan_entropy_bits": [40, 64.6]}',
      );
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      const document = JSON.parse(
        readFileSync(path.join(output, 'loop-gpt-ext4-78pct-debian12.json'), 'utf8'),
      ) as { result: { plan: Record<string, unknown> & { settings: { luks2Pbkdf: object } } } };
      const { plan } = document.result;
      // A quarter of the unlocking machine's 1 GiB (rules/flag-definitions.ts UNLOCK_RAM_SHARE), on its 2 cores.
      expect(plan.settings.luks2Pbkdf).toMatchObject({ memoryKiB: 262144, parallel: 2 });
      expect(plan.workload).toBe('write-heavy');
      expect(JSON.stringify(plan)).toContain('fleetdata');
      const bits = [...JSON.stringify(plan).matchAll(/"entropyBits":([\d.]+)/g)].map((match) => match[1]);
      expect(new Set(bits)).toEqual(new Set(['40', '64.6']));
    });

    it('fails the host with the accepted form when encplan refuses a value', () => {
      const run = assessWith('encplan_unlock_memory=2048');
      expect(run.status).not.toBe(0);
      expect(run.stdout).toContain('--unlock-memory \\"2048\\" is not accepted');
      expect(run.stdout).toContain('Accepted: a size with a binary unit');
    });

    it("refuses a choice outside the definition's values in the role's argument validation", () => {
      const run = assessWith('encplan_workload=bogus');
      expect(run.status).not.toBe(0);
      expect(run.stdout).toContain('value of encplan_workload must be one of: desktop, server, write-heavy');
    });
  });
});
