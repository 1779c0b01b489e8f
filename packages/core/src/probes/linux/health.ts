import {
  assessHealth,
  exitStatusMismatchWarning,
  implausibleValueWarnings,
  smartUnavailableWarning,
  unavailableHealth,
} from '../../analyses/health.js';
import { readProvisioningMode } from './sysfs-stack.js';
import type { Health } from '../../domain/health.js';
import type { DriveHealthFacts } from '../../analyses/drive-sections.js';
import type { Warning } from '../../domain/warning.js';
import { parseHdparmIdentify } from '../../parsers/hdparm/identify.js';
import { parseNvmeIdCtrl } from '../../parsers/nvme/id-ctrl.js';
import { parseNvmeIdNs } from '../../parsers/nvme/id-ns.js';
import { parseNvmeSmartLog } from '../../parsers/nvme/smart-log.js';
import { parseSedutilScan, type SedutilScanEntry } from '../../parsers/sedutil/scan.js';
import { parseSedutilQuery, type OpalQuery } from '../../targets/luks2-opal/sedutil-query.js';
import { parseSmartctlJson, type SmartctlReport } from '../../parsers/smartctl/smartctl-json.js';
import type { Host } from '../../ports.js';
import { attempt, createProbeContext, tryRun, type ProbeContext } from '../probe-context.js';
import { smartctlCall } from './disk-calls.js';

const TOOL_TIMEOUT_MS = 15_000;

/** USB bridge device types to try when smartctl cannot tell the type itself (smartctl(8) -d; Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page). */
const USB_BRIDGE_TYPES = ['sat', 'sntjmicron', 'sntasmedia', 'sntrealtek'] as const;

/** The disk probeHealth asks about. */
export interface HealthProbeTarget {
  /** Validated block device path under /dev (the inventory's Disk.path). */
  readonly path: string;
  readonly transport: string;
}

interface SmartctlAnswer {
  readonly report: SmartctlReport;
  readonly deviceType: string | null;
}

async function runSmartctl(
  context: ProbeContext,
  path: string,
  deviceType: string | null,
): Promise<SmartctlAnswer | null> {
  const output = await tryRun(context, smartctlCall(path, deviceType), `Reading SMART data of ${path}`);
  if (output === null) {
    return null;
  }
  const report = await attempt(context, 'smartctl', `Reading SMART data of ${path}`, () =>
    Promise.resolve(parseSmartctlJson(output.stdout, output.exitCode)),
  );
  return report === null ? null : { report, deviceType };
}

function needsBridgeRetry(answer: SmartctlAnswer, transport: string): boolean {
  const reason = answer.report.facts.unavailable?.reason;
  return (
    (reason === 'device-type-unknown' || reason === 'unsupported-bridge') &&
    (transport === 'usb' || transport === 'unknown')
  );
}

async function readSmartctl(
  context: ProbeContext,
  target: HealthProbeTarget,
): Promise<SmartctlAnswer | null> {
  const first = await runSmartctl(context, target.path, null);
  if (first === null || !needsBridgeRetry(first, target.transport)) {
    return first;
  }
  for (const type of USB_BRIDGE_TYPES) {
    const retry = await runSmartctl(context, target.path, type);
    if (retry !== null && retry.report.facts.unavailable === null) {
      return retry;
    }
  }
  return first;
}

async function runJson<T>(
  context: ProbeContext,
  tool: 'nvme' | 'hdparm' | 'sedutil-cli',
  args: string[],
  purpose: string,
  parse: (text: string) => T,
): Promise<T | null> {
  const output = await tryRun(context, { tool, args, timeoutMs: TOOL_TIMEOUT_MS }, purpose);
  if (output === null || output.exitCode !== 0) {
    return null;
  }
  return attempt(context, tool, purpose, () => Promise.resolve(parse(output.stdout)));
}

/**
 * `sedutil-cli --query DEVICE`: the TCG Level 0 Discovery, which reads the drive's locking state without a
 * password and changes nothing on it (sedutil Common/DtaDevOpal.cpp query: discovery0 and the properties
 * exchange only). Asked only of a drive `--scan` lists with a TCG SSC; otherwise the reason is kept, never a "no".
 */
async function queryOpal(
  context: ProbeContext,
  device: string,
  installed: boolean,
  scan: readonly SedutilScanEntry[] | null,
  entry: SedutilScanEntry | null,
): Promise<OpalQuery> {
  const unknown = (unknownReason: string): OpalQuery => ({ discovery: null, unknownReason });
  if (!installed) {
    return unknown(
      'sedutil-cli is not installed (the sedutil package), so the TCG locking state was not read.',
    );
  }
  if (scan === null) {
    return unknown(
      'sedutil-cli --scan gave no answer (it needs root), so the TCG locking state was not read.',
    );
  }
  if (entry === null) {
    return unknown(`sedutil-cli --scan does not list ${device}, so the TCG locking state was not read.`);
  }
  if (!(entry.opal1 || entry.opal2 || entry.enterprise || entry.opalite || entry.pyrite || entry.ruby)) {
    return unknown(
      `sedutil-cli --scan lists no TCG security subsystem on ${device}: there is no locking state to read.`,
    );
  }
  const discovery = await runJson(
    context,
    'sedutil-cli',
    ['--query', device],
    `Reading the TCG locking state of ${device}`,
    parseSedutilQuery,
  );
  return discovery === null
    ? unknown(
        `sedutil-cli --query ${device} gave no Level 0 Discovery, so the TCG locking state was not read.`,
      )
    : { discovery, unknownReason: null };
}

/**
 * Whether `path` is there: its node exists and, for a device the kernel lists in sysfs, its size is not 0 (a
 * loop device after `losetup -d` keeps its /dev node but has size 0). Compared before and after smartctl.
 */
async function attached(host: Host, path: string): Promise<boolean> {
  if ((await host.stat(path).catch(() => null)) === null) {
    return false;
  }
  const name = path.split('/').pop() ?? '';
  const size = await host.readText(`/sys/class/block/${name}/size`).catch(() => null);
  return size === null || size.trim() !== '0';
}

/**
 * Reads the drive's health, TRIM and security facts: `smartctl --json=v -x --nocheck=standby` (retrying USB
 * bridge types when smartctl cannot tell the device type), else `nvme smart-log -o json`; NVMe Identify
 * (ONCS/OACS/DLFEAT) through nvme-cli, `hdparm -I` for ATA drives, and `sedutil-cli --scan` when installed.
 * Never throws for a missing tool: every gap becomes a warning, and an unreadable SMART a SMART_UNAVAILABLE.
 */
export async function probeHealth(
  host: Host,
  target: HealthProbeTarget,
  signal?: AbortSignal,
): Promise<{ facts: DriveHealthFacts; warnings: Warning[] }> {
  const context = createProbeContext(host, signal);
  const nvme = target.transport === 'nvme' || /^\/dev\/nvme\d+/.test(target.path);
  const ata = target.transport === 'sata' || target.transport === 'ata' || target.transport === 'usb';
  const [hasSmartctl, hasNvme, hasHdparm, hasSedutil] = await Promise.all([
    host.whichTool('smartctl'),
    host.whichTool('nvme'),
    host.whichTool('hdparm'),
    host.whichTool('sedutil-cli'),
  ]);
  const attachedBefore = hasSmartctl !== null && (await attached(host, target.path));
  const smartctl = hasSmartctl === null ? null : await readSmartctl(context, target);
  let health: Health;
  const smartctlUsable = smartctl !== null && smartctl.report.facts.unavailable === null;
  if (!smartctlUsable && nvme && hasNvme !== null) {
    const facts = await runJson(
      context,
      'nvme',
      ['smart-log', '-o', 'json', '--', target.path],
      `Reading the NVMe SMART log of ${target.path}`,
      parseNvmeSmartLog,
    );
    health =
      facts === null
        ? smartctl === null
          ? unavailableHealth('no-smart-data', 'nvme smart-log gave no usable output.')
          : assessHealth(smartctl.report.facts)
        : assessHealth(facts);
  } else if (smartctl !== null) {
    health = assessHealth(smartctl.report.facts);
  } else if (hasSmartctl === null) {
    health = unavailableHealth('tool-missing', 'smartctl is not installed (apt-get install smartmontools).');
  } else {
    health = unavailableHealth('no-smart-data', 'smartctl gave no usable output.');
  }
  if (smartctl !== null && attachedBefore && !(await attached(host, target.path))) {
    // What smartctl printed may describe a device that is no longer there (or another one in its place).
    health = unavailableHealth(
      'open-failed',
      `${target.path} was detached while smartctl read it; its SMART data is not reported.`,
    );
  }
  if (health.unavailable?.reason === 'tool-missing') {
    // A missing tool is TOOL_MISSING like every other one, so the report and the wizard list it with its package.
    context.warnings.push({
      code: 'TOOL_MISSING',
      message:
        'smartctl is not installed: SMART health, wear, temperature and TRIM capability are not read (apt-get install smartmontools).',
      source: 'smartctl',
    });
  } else if (health.unavailable !== null) {
    context.warnings.push(
      smartUnavailableWarning(
        health.unavailable.reason,
        health.unavailable.detail,
        health.source === 'none' ? 'smartctl' : health.source,
      ),
    );
  }
  const mismatch = smartctl?.report.exitStatusMismatch ?? null;
  if (mismatch !== null) {
    context.warnings.push(exitStatusMismatchWarning(mismatch));
  }
  context.warnings.push(...implausibleValueWarnings(smartctl?.report.implausible ?? [], 'smartctl'));
  const nvmeIdentify = <T>(command: 'id-ctrl' | 'id-ns', what: string, parse: (text: string) => T) =>
    nvme && hasNvme !== null
      ? runJson(
          context,
          'nvme',
          [command, '-o', 'json', '--', target.path],
          `Reading NVMe Identify ${what} of ${target.path}`,
          parse,
        )
      : Promise.resolve(null);
  const nvmeIdCtrl = await nvmeIdentify('id-ctrl', 'Controller', parseNvmeIdCtrl);
  const nvmeIdNs = await nvmeIdentify('id-ns', 'Namespace', parseNvmeIdNs);
  // smartctl prints `trim` only from 7.3; older versions need hdparm -I for TRIM and deterministic reads.
  const hdparm =
    ata && hasHdparm !== null && (smartctl?.report.trim ?? null) === null
      ? await runJson(
          context,
          'hdparm',
          ['-I', target.path],
          `Reading ATA IDENTIFY of ${target.path}`,
          parseHdparmIdentify,
        )
      : null;
  const scan =
    hasSedutil === null
      ? null
      : await runJson(context, 'sedutil-cli', ['--scan'], 'Scanning for Opal drives', parseSedutilScan);
  const sedutil = scan?.find((entry) => entry.device === target.path) ?? null;
  const trimCapabilities = [
    smartctl?.report.trim ?? null,
    nvmeIdCtrl?.trim ?? null,
    nvmeIdNs?.trim ?? null,
    hdparm?.trim ?? null,
  ].filter((c) => c !== null);
  const securityCapabilities = [
    smartctl?.report.security ?? null,
    nvmeIdCtrl?.security ?? null,
    hdparm?.security ?? null,
  ].filter((c) => c !== null);
  return {
    facts: {
      health,
      trimCapabilities,
      securityCapabilities,
      nvmeIdCtrl,
      nvmeIdNs,
      hdparm,
      sedutil,
      opalQuery: await queryOpal(context, target.path, hasSedutil !== null, scan, sedutil),
      provisioningMode: await readProvisioningMode(host, target.path.slice(target.path.lastIndexOf('/') + 1)),
    },
    warnings: context.warnings,
  };
}
