import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { PlanFacts } from './facts.js';
import { isKernelAtLeast } from './kernel-version.js';
import type { Strategy } from './strategy.js';

/**
 * `dm-crypt-tunables` (info finding): the dm-crypt knobs of recent kernels that encplan knows but does not set.
 *
 * - `high_priority` (Linux 6.10, dm-crypt target 1.25.0; Documentation/admin-guide/device-mapper/dm-crypt.rst:
 *   "Set dm-crypt workqueues and the writer thread to high priority. This improves throughput and latency of
 *   dm-crypt while degrading general responsiveness of the system"). cryptsetup passes it as
 *   `--perf-high_priority` from 2.8.0 (release notes: new define CRYPT_ACTIVATE_HIGH_PRIORITY; cryptsetup
 *   option list, ARG(OPT_PERF_HIGH_PRIORITY): "Set dm-crypt workqueues and the writer thread to high priority"). It only
 *   matters while the workqueues are in the path, and the plan does not know the cryptsetup version that will
 *   run its commands (an older one refuses the option), so the plan states it and does not emit it.
 * - `max_read_size` / `max_write_size` (Linux 6.11): module parameters of dm_crypt, not table options
 *   (dm-crypt.rst "Module parameters": "When a request larger than this size is received, dm-crypt will split
 *   the request. The splitting improves concurrency … but it also causes overhead. The user should tune these
 *   parameters to fit the actual workload"). No cryptsetup option passes them; they apply to every dm-crypt
 *   device of the machine (/sys/module/dm_crypt/parameters/), and no published figure sizes them: never emitted.
 */
export function findDmCryptTunables(facts: PlanFacts, workqueueBypass: boolean): Finding[] {
  const kernel = facts.machine?.os?.kernel ?? null;
  const has610 = isKernelAtLeast(kernel, 6, 10);
  if (has610 !== true) {
    return [];
  }
  const has611 = isKernelAtLeast(kernel, 6, 11) === true;
  const priority = workqueueBypass
    ? ''
    : "high_priority (Linux 6.10) raises dm-crypt's workqueues and writer thread to high priority: more throughput and lower latency for dm-crypt, less responsiveness for everything else (dm-crypt.rst). cryptsetup 2.8.0 and later pass it as --perf-high_priority (add --persistent to store it); encplan does not add it, because the trade-off is yours and an older cryptsetup refuses the option. ";
  const split = has611
    ? 'max_read_size / max_write_size (Linux 6.11) are dm_crypt module parameters (/sys/module/dm_crypt/parameters/) for every dm-crypt device of the machine: splitting large requests spreads them over cores at some overhead; no cryptsetup option sets them and no published figure sizes them, so encplan leaves the defaults.'
    : '';
  if (priority === '' && split === '') {
    return [];
  }
  return [
    {
      ruleId: 'dm-crypt-tunables',
      severity: 'info',
      message: `Kernel ${String(kernel)}: ${priority}${split}`.trim(),
      evidence: [
        evidence('machine.os.kernel', kernel, sourceOf('uname', 'release')),
        evidence('workqueue bypass planned', workqueueBypass, sourceOf('encplan', 'rule workqueue-bypass')),
      ],
    },
  ];
}

/**
 * `nvme-4096-lba` (info finding): cryptsetup 2.8.0's release notes: an NVMe drive can be reformatted to
 * 4096-byte sectors ("nvme id-ns -H <nvme device>" lists the LBA formats, "nvme format -l <lbaf>" reformats
 * "with complete data loss"), "which is strongly recommended for encryption performance". Only where the plan
 * formats the whole namespace fresh and it runs with 512-byte logical sectors; never a command (it erases the
 * namespace and the supported formats are not in the assessment).
 */
export function findNvme4096Lba(facts: PlanFacts, strategy: Strategy): Finding[] {
  const path = facts.disk?.path ?? null;
  const logical = facts.disk?.logicalSectorBytes ?? null;
  if (
    path === null ||
    !/^\/dev\/nvme\d+n\d+$/.test(path) ||
    logical !== 512 ||
    strategy.kind !== 'fresh-format'
  ) {
    return [];
  }
  return [
    {
      ruleId: 'nvme-4096-lba',
      severity: 'info',
      message: `${path} uses 512-byte logical blocks. cryptsetup 2.8.0's release notes strongly recommend reformatting an NVMe namespace to 4096-byte sectors for encryption performance: list its formats with nvme id-ns -H ${path}, and if one has a 4096-byte data size, nvme format ${path} -l <that LBA format> before luksFormat (it erases the whole namespace).`,
      evidence: [
        evidence('disk.logicalSectorBytes', logical, sourceOf('lsblk', 'log-sec')),
        evidence('strategy', strategy.kind, sourceOf('encplan', 'rule strategy')),
      ],
    },
  ];
}
