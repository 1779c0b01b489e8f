import type { Capability } from '../domain/capabilities.js';
import { BENCHMARKS } from '../targets/registry.js';
import { DEBIAN_PACKAGES, type Host, type ToolName } from '../ports.js';
import { probeCapabilities } from '../probes/capabilities.js';
import type { Capabilities } from './ui-services.js';

/** One benchmark choice the wizard offers, and what it needs of this machine. */
interface BackendNeeds {
  readonly id: string;
  readonly label: string;
  /** Any one of these tools will do (cipher speed: cryptsetup or openssl). */
  readonly anyTool?: readonly ToolName[];
  /** Every one of these tools is needed. */
  readonly tools: readonly ToolName[];
  readonly kernel: readonly Capability['id'][];
}

/** What the scratch filesystem of every I/O run needs: fio, a loop device with ext4, mounted (run-io-benchmark, targets). */
const IO_TOOLS: readonly ToolName[] = ['fio', 'losetup', 'mkfs.ext4', 'mount', 'umount'];
const IO_KERNEL: readonly Capability['id'][] = ['root', 'loop-devices'];

const BACKENDS: readonly BackendNeeds[] = [
  {
    id: 'ciphers',
    label: 'Cipher and key-derivation speed (memory only, no disk I/O)',
    anyTool: ['cryptsetup', 'openssl'],
    tools: [],
    kernel: [],
  },
  {
    id: 'plain',
    label: 'Plain I/O (no encryption): the baseline',
    tools: IO_TOOLS,
    kernel: IO_KERNEL,
  },
  // The encryption targets whose benchmark container the Linux run makes (targets/*: benchmark).
  ...BENCHMARKS.filter(
    (benchmark) => benchmark.selectable && benchmark.platforms.some((platform) => platform === 'linux'),
  ).map((benchmark) => ({
    id: benchmark.backendId,
    label: benchmark.label,
    tools: [...IO_TOOLS, ...benchmark.tools],
    kernel: [...IO_KERNEL, ...benchmark.kernel],
  })),
];

/** Why a kernel or platform feature is missing, in the words a person acts on. */
const KERNEL_REASON: Readonly<Record<Capability['id'], string>> = {
  root: 'administrator rights (it attaches loop devices and mounts scratch filesystems); start encplan ui with sudo',
  'device-mapper': 'device-mapper, which this kernel lacks (modprobe dm_crypt, or a kernel with it)',
  'kernel-crypto-user-api': 'the kernel crypto user API (AF_ALG), which this kernel lacks',
  'loop-devices': 'loop devices, which this kernel lacks (/dev/loop-control is missing; modprobe loop)',
  'ext4-encryption': 'ext4 encryption, which this kernel lacks (/sys/fs/ext4/features/encryption is missing)',
  udev: 'the udev database',
};

function toolReason(tools: readonly ToolName[]): string {
  const named = tools.map((tool) => `${tool} (Debian package ${DEBIAN_PACKAGES[tool]})`);
  return tools.length === 1
    ? `${named.join('')}, which is not installed`
    : `${named.join(', ')}, which are not installed`;
}

/**
 * The benchmark choices this machine can run, each unavailable one with the reason: the tools it lacks (with
 * the Debian package) and the kernel features it lacks (read by probeCapabilities). Reads PATH, /proc, /sys and
 * /dev only; runs nothing.
 */
export async function probeBenchmarkBackends(host: Host): Promise<Capabilities['backends']> {
  if (host.platform !== 'linux') {
    return BACKENDS.map((backend) => ({
      id: backend.id,
      label: backend.label,
      available: false,
      reason: `The wizard benchmarks on Linux in this version; this is ${host.platform}.`,
    }));
  }
  const capabilities = await probeCapabilities(host);
  const wanted = [...new Set(BACKENDS.flatMap((backend) => [...backend.tools, ...(backend.anyTool ?? [])]))];
  const found = new Map(
    await Promise.all(wanted.map(async (tool) => [tool, (await host.whichTool(tool)) !== null] as const)),
  );
  return BACKENDS.map((backend) => {
    const missingTools = backend.tools.filter((tool) => found.get(tool) !== true);
    const anyTool = backend.anyTool ?? [];
    const missingAny = anyTool.length > 0 && !anyTool.some((tool) => found.get(tool) === true);
    const missingKernel = backend.kernel.filter(
      (id) => capabilities.find((capability) => capability.id === id)?.present !== true,
    );
    const needs = [
      ...(missingAny
        ? [
            `${anyTool.join(' or ')}, neither of which is installed (Debian package ${anyTool.map((tool) => DEBIAN_PACKAGES[tool]).join(' or ')})`,
          ]
        : []),
      ...(missingTools.length === 0 ? [] : [toolReason(missingTools)]),
      ...missingKernel.map((id) => KERNEL_REASON[id]),
    ];
    return {
      id: backend.id,
      label: backend.label,
      available: needs.length === 0,
      reason: needs.length === 0 ? null : `Needs ${needs.join('; and ')}.`,
    };
  });
}
