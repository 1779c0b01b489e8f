import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/fake-tools.js';
import { noteSkip } from '../../support/skip-reasons.js';

/*
 * The Ansible collection for real: four managed hosts, each a network namespace with its own sshd on its own
 * address (10.231.N.2, reached over a veth pair this test creates) and its own loop disk; Debian's ansible-core
 * and collections drive them over SSH. h1 assesses its loop disk live, h2 replays a bundle whose drive is
 * failing, h3 and h4 replay real bundles (a loop disk; a virtio system disk whose root filesystem only the mount table names). Everything is torn down in afterAll, also after a failure.
 * The assess step is docs/fleet.md's own command lines, extracted and run as written (a folder with the
 * checkout's scripts/ and ansible/ and an `inventory`, as a user has), so the documentation cannot drift.
 */

/** The shell blocks docs/fleet.md marks as run by this test: the `sh` blocks after the marker comment. */
function documentedBlocks(): string[] {
  const text = readFileSync(path.join(REPO_ROOT, 'docs/fleet.md'), 'utf8');
  const marker = text.indexOf(
    '<!-- tests/integration/fleet/ansible-fleet.integration.test.ts runs the next two',
  );
  expect(marker).toBeGreaterThan(0);
  const blocks = [...text.slice(marker).matchAll(/^( *)```sh\n([\s\S]*?)^ *```$/gm)].slice(0, 2);
  return blocks.map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n'),
  );
}

const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;
const HOSTS_SCRIPT = path.join(REPO_ROOT, 'tests/integration/fleet/netns-hosts.sh');
const REQUIRED_TOOLS = [
  'ansible-playbook',
  'ansible',
  'sshd',
  'ssh',
  'ssh-keygen',
  'ip',
  'losetup',
  'lsblk',
  'blkid',
];

function skipReason(): string | null {
  let reason: string | null = null;
  if (process.getuid?.() !== 0) {
    reason = 'needs root (network namespaces, loop devices); CI runs as root';
  } else {
    const missing = REQUIRED_TOOLS.filter(
      (tool) =>
        spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool], { env: { PATH: SBIN_PATH } }).status !== 0,
    );
    if (missing.length > 0) {
      reason = `needs ${missing.join(', ')} (apt-get install ansible openssh-server iproute2; scripts/setup.sh installs them)`;
    } else if (spawnSync('ip', ['netns', 'list'], { env: { PATH: SBIN_PATH } }).status !== 0) {
      reason = 'network namespaces are not available here';
    }
  }
  if (reason !== null && process.env.CI === 'true' && process.getuid?.() === 0) {
    throw new Error(`Fleet integration prerequisites are missing in CI: ${reason}`);
  }
  return reason;
}

const reason = skipReason();
noteSkip(import.meta.url, reason);

interface Run {
  readonly status: number;
  readonly output: string;
}

describe.skipIf(reason !== null)('the encplan.fleet collection over SSH on four namespace hosts', () => {
  // Short: ssh control sockets must fit in 108 bytes.
  const state = mkdtempSync(path.join(tmpdir(), 'epf-'));
  const env = {
    ...process.env,
    PATH: SBIN_PATH,
    ANSIBLE_COLLECTIONS_PATH: path.join(REPO_ROOT, 'ansible'),
    ANSIBLE_HOME: path.join(state, 'ansible-home'),
    ANSIBLE_LOCAL_TEMP: path.join(state, 'ansible-local'),
    // The localhost play's remote temp too, or Ansible creates ~/.ansible/tmp.
    ANSIBLE_REMOTE_TEMP: path.join(state, 'ansible-remote'),
    ANSIBLE_SSH_CONTROL_PATH_DIR: path.join(state, 'cp'),
    ANSIBLE_HOST_KEY_CHECKING: 'False',
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_RETRY_FILES_ENABLED: 'False',
    ANSIBLE_LOCALHOST_WARNING: 'False',
    ANSIBLE_FORKS: '5',
  };
  // Where the documented playbook puts them by default ($PWD/encplan/…, $PWD being `state`).
  const fetched = path.join(state, 'encplan/fetched');
  const reportDir = path.join(state, 'encplan/report');
  const loops = new Map<string, string>();
  const mountpoint = path.join(state, 'h1-mounted');
  let assessRun: Run = { status: -1, output: '' };
  const blocks = documentedBlocks();
  /** One documented block, run as written by bash in `state` (the user's working directory). */
  const runDocumented = (block: string) => run('bash', ['-euo', 'pipefail', '-c', block]);

  const run = (command: string, args: readonly string[]): Run => {
    const result = spawnSync(command, [...args], { cwd: state, env, encoding: 'utf8', timeout: 600_000 });
    return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
  };
  const playbook = (name: string, ...extra: string[]) =>
    run('ansible-playbook', ['-i', path.join(state, 'inventory.ini'), `encplan.fleet.${name}`, ...extra]);

  const onHost = (host: string, command: string) =>
    run('ansible', [
      '-i',
      path.join(state, 'inventory.ini'),
      host,
      '-m',
      'ansible.builtin.command',
      '-a',
      command,
    ]);

  beforeAll(() => {
    // A user's working directory: the checkout's scripts and collection, and an inventory.
    symlinkSync(path.join(REPO_ROOT, 'scripts'), path.join(state, 'scripts'));
    symlinkSync(path.join(REPO_ROOT, 'ansible'), path.join(state, 'ansible'));
    const up = run('bash', [HOSTS_SCRIPT, 'up', state, '4']);
    expect(up.status, up.output).toBe(0);
    for (const line of readFileSync(path.join(state, 'inventory.ini'), 'utf8').split('\n')) {
      const match = /^(h\d) .*encplan_test_loop=(\S+)/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) {
        loops.set(match[1], match[2]);
      }
    }
    copyFileSync(path.join(state, 'inventory.ini'), path.join(state, 'inventory'));
    mkdirSync(path.join(state, 'host_vars'));
    writeFileSync(path.join(state, 'host_vars/h1.yml'), `encplan_devices: [${loops.get('h1') ?? ''}]\n`);
    writeFileSync(
      path.join(state, 'host_vars/h2.yml'),
      `encplan_bundle: ${path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-smart-realloc304-composed')}\n`,
    );
    writeFileSync(
      path.join(state, 'host_vars/h3.yml'),
      // h3's plan is made for a 1 GiB, 2-core unlocking machine (the role's plan options, issue 25 item 4).
      `encplan_bundle: ${path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12')}\n` +
        'encplan_unlock_memory: 1GiB\nencplan_unlock_cores: 2\nencplan_mapping_name: fleetdata\n',
    );
    writeFileSync(
      path.join(state, 'host_vars/h4.yml'),
      `encplan_bundle: ${path.join(REPO_ROOT, 'fixtures/bundles/virtio-root-no-table-blkid-eperm-debian12')}\n`,
    );
    assessRun = runDocumented(blocks[0] ?? '');
  }, 900_000);

  afterAll(() => {
    onHost('h1', `umount ${mountpoint}`);
    const down = spawnSync('bash', [HOSTS_SCRIPT, 'down', state], { env, encoding: 'utf8' });
    rmSync(state, { recursive: true, force: true });
    if (down.status !== 0) {
      throw new Error(`teardown failed: ${down.stdout}${down.stderr}`);
    }
  });

  it("runs docs/fleet.md's pack and assess lines as written, over SSH on every host without a failure", () => {
    expect(blocks[0]).toContain('ansible-playbook -i inventory encplan.fleet.assess');
    expect(assessRun.status, assessRun.output).toBe(0);
    expect(assessRun.output).toMatch(/localhost\s+: ok=\d+ .*failed=0/);
    expect(assessRun.output).toMatch(/h1\s+: ok=\d+ .*failed=0/);
    expect(assessRun.output).toMatch(/h2\s+: ok=\d+ .*failed=0/);
    expect(assessRun.output).toMatch(/h3\s+: ok=\d+ .*failed=0/);
    expect(assessRun.output).toMatch(/h4\s+: ok=\d+ .*failed=0/);
  });

  it('publishes each assessment as ansible_local.encplan, read back over SSH by the setup module', () => {
    const seen: Record<string, string> = {};
    for (const host of ['h1', 'h2', 'h3', 'h4']) {
      const facts = run('ansible', [
        '-i',
        path.join(state, 'inventory.ini'),
        host,
        '-m',
        'ansible.builtin.setup',
        '-a',
        `filter=ansible_local fact_path=${path.join(state, host, 'facts.d')}`,
      ]);
      expect(facts.status, facts.output).toBe(0);
      const json = JSON.parse(facts.output.slice(facts.output.indexOf('{'))) as {
        ansible_facts: {
          ansible_local: {
            encplan: {
              assessments: {
                schema: string;
                result: { target: { path: string }; provenance: { mode: string } };
              }[];
            };
          };
        };
      };
      const [assessment] = json.ansible_facts.ansible_local.encplan.assessments;
      expect(assessment?.schema).toBe('encplan.assessment');
      seen[host] = `${assessment?.result.provenance.mode ?? ''} ${assessment?.result.target.path ?? ''}`;
    }
    expect(seen).toEqual({
      h1: `live ${loops.get('h1') ?? ''}`,
      h2: 'bundle /dev/loop0',
      h3: 'bundle /dev/loop0',
      h4: 'bundle /dev/vda',
    });
  });

  it("makes h3's plan with the plan options of its host variables, over SSH", () => {
    const fetchedPlan = (host: string, name: string) =>
      (
        JSON.parse(readFileSync(path.join(fetched, host, `${name}.json`), 'utf8')) as {
          result: { plan: { settings: { luks2Pbkdf: { memoryKiB: number; parallel: number } } } };
        }
      ).result.plan;
    const h3 = fetchedPlan('h3', 'loop-gpt-ext4-78pct-debian12');
    // A quarter of 1 GiB (UNLOCK_RAM_SHARE, rules/flag-definitions.ts) on 2 lanes; h2, without options, differs.
    expect(h3.settings.luks2Pbkdf).toMatchObject({ memoryKiB: 262144, parallel: 2 });
    expect(JSON.stringify(h3)).toContain('fleetdata');
    expect(JSON.stringify(fetchedPlan('h2', 'loop-gpt-ext4-78pct-smart-realloc304-composed'))).not.toContain(
      'fleetdata',
    );
  });

  it('runs encplan fleet report on what was fetched and counts the hosts right', () => {
    const report = JSON.parse(readFileSync(path.join(reportDir, 'fleet-report.json'), 'utf8')) as {
      schema: string;
      result: {
        summary: Record<string, number>;
        issueCounts: { issue: string; count: number }[];
        rows: {
          machine: string;
          disk: string;
          readiness: string;
          issues: string;
          driveFailing: boolean;
          noSpareArea: boolean;
        }[];
      };
    };
    expect(report.schema).toBe('encplan.fleet-report');
    const { summary, rows, issueCounts } = report.result;
    expect(summary).toMatchObject({ documents: 4, machines: 4, notAssessed: 0, unusable: 0 });
    expect(summary.ready! + summary.fixFirst!).toBe(4);
    const byMachine = Object.fromEntries(rows.map((row) => [row.machine, row]));
    // h2's bundle carries a Seagate with 304 reallocated sectors; h3's was collected on a kernel with the
    // generic AES driver (fixtures/bundles/*/PROVENANCE.md).
    expect(byMachine.h2).toMatchObject({ readiness: 'fix-first', driveFailing: true });
    expect(byMachine.h3).toMatchObject({ readiness: 'fix-first', issues: 'aes-unaccelerated' });
    // h4's root filesystem is read from the mount table where blkid is denied (issue 25 item 6): its trimmed
    // free space serves as spare area, and what it must fix first is the kernel's unaccelerated AES.
    expect(byMachine.h4).toMatchObject({
      readiness: 'fix-first',
      noSpareArea: false,
      issues: 'aes-unaccelerated',
    });
    expect(byMachine.h1?.disk).toBe(loops.get('h1'));
    expect(issueCounts.find((entry) => entry.issue === 'drive-failing')?.count).toBe(1);
    expect(readFileSync(path.join(reportDir, 'fleet-report.html'), 'utf8')).toMatch(/<svg [^>]*role="img"/);
  });

  it("runs docs/fleet.md's re-run lines as written: re-assesses the fix-first hosts and writes the CSV", () => {
    const rerun = runDocumented(blocks[1] ?? '');
    expect(rerun.status, rerun.output).toBe(0);
    const fix = readFileSync(path.join(state, 'fix.txt'), 'utf8').trim().split('\n');
    expect(fix).toEqual(expect.arrayContaining(['h2', 'h3', 'h4']));
    for (const host of fix) {
      expect(rerun.output).toMatch(new RegExp(`${host}\\s+: ok=\\d+ .*failed=0`));
    }
    expect(rerun.output).toMatch(/localhost\s+: ok=\d+ .*failed=0/);
    const csv = readFileSync(path.join(state, 'fleet.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^source,machine,disk,platform,/);
    expect(csv.filter((line) => line !== '')).toHaveLength(5);
  });

  it("applies h1's plan in check mode: reports the partition and LUKS2 parameters, writes nothing", () => {
    const loop = loops.get('h1') ?? '';
    const plan = (
      JSON.parse(readFileSync(path.join(fetched, 'h1', `${path.basename(loop)}.json`), 'utf8')) as {
        result: {
          plan: {
            settings: {
              cipher: string;
              keySizeBits: number;
              sectorSizeBytes: number;
              luks2Pbkdf: { memoryKiB: number };
            };
          };
        };
      }
    ).result.plan.settings;
    const applied = playbook('apply', '-e', 'encplan_hosts=h1', '-e', `encplan_apply_device=${loop}`);
    expect(applied.status, applied.output).toBe(0);
    expect(applied.output).toMatch(
      /TASK \[encplan\.fleet\.apply : Create the planned partition\] \*+\nchanged: \[h1\]/,
    );
    expect(applied.output).toContain(`"cipher": "${plan.cipher}"`);
    expect(applied.output).toContain(`"keysize": ${String(plan.keySizeBits)}`);
    expect(applied.output).toContain(`"sector_size": ${String(plan.sectorSizeBytes)}`);
    expect(applied.output).toContain(`"memory": ${String(plan.luks2Pbkdf.memoryKiB)}`);
    expect(applied.output).toContain('check mode (set encplan_apply_confirm to write)');
    // The disk is still blank: blkid finds no partition table (exit status 2 = nothing found).
    expect(spawnSync('blkid', ['-p', loop], { env }).status).toBe(2);
  });

  it('refuses to apply the plan of the failing drive, as encplan --fail-on failing does', () => {
    const refused = playbook('apply', '-e', 'encplan_hosts=h2', '-e', 'encplan_apply_device=/dev/loop0');
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('Refusing /dev/loop0: The drive is failing');
    expect(refused.output).not.toContain('Create the planned partition');
  });

  it('refuses a disk that is in use now (mounted on the host), checked on the host at apply time', () => {
    const loop = loops.get('h1') ?? '';
    mkdirSync(mountpoint);
    expect(spawnSync('mkfs.ext4', ['-q', '-F', loop], { env }).status).toBe(0);
    // Mounted by the host itself, over SSH: each namespace host has its own mount namespace (ip netns exec).
    const mounted = onHost('h1', `mount ${loop} ${mountpoint}`);
    expect(mounted.status, mounted.output).toBe(0);
    try {
      const refused = playbook('apply', '-e', 'encplan_hosts=h1', '-e', `encplan_apply_device=${loop}`);
      expect(refused.status).not.toBe(0);
      expect(refused.output).toContain(`Refusing ${loop}: it is in use (mounted: ${mountpoint}`);
      expect(refused.output).not.toContain('Create the planned partition');
    } finally {
      onHost('h1', `umount ${mountpoint}`);
    }
  });
});
