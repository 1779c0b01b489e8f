import type { StackNode } from '../../domain/device.js';
import type { Warning } from '../../domain/warning.js';
import { parseLuks2JsonMetadata } from '../../parsers/cryptsetup/parse-luks-dump.js';
import { parseCrypttab, type CrypttabEntry } from '../../parsers/crypttab/crypttab.js';
import { parseDmsetupTable, type DmTableLine } from '../../parsers/dmsetup/table.js';
import { parseMountinfo, type MountEntry } from '../../parsers/proc/mountinfo.js';
import { parseSystemctlShow, systemdTimestampToIso } from '../../parsers/systemctl/show.js';
import type { Host } from '../../ports.js';
import { fstrimTimerCall, SYSTEMD_RUNTIME_DIRECTORY } from './disk-calls.js';
import {
  addWarning,
  attempt,
  createProbeContext,
  tryRun,
  tryRunOrUncaptured,
  type ProbeContext,
} from '../probe-context.js';

/** The facts beyond the stack itself that decide discard passthrough (probeDiscardStack gathers them). */
export interface DiscardStackFacts {
  /** `dmsetup table` lines by mapping name; a missing name means the table could not be read. */
  readonly dmTables: Readonly<Record<string, readonly DmTableLine[]>>;
  /** Persistent LUKS2 flags (luksDump --dump-json-metadata config.flags) by mapping name. */
  readonly luksFlags: Readonly<Record<string, readonly string[]>>;
  readonly crypttab: readonly CrypttabEntry[] | null;
  /** /sys/module/raid456/parameters/devices_handle_discard_safely; null when not loaded or unreadable. */
  readonly raid456DiscardSafe: boolean | null;
  readonly mounts: readonly MountEntry[] | null;
  readonly fstrimTimer: { readonly enabled: boolean | null; readonly lastRunAt: string | null } | null;
  /** assessTrim's readsZeroesAfterTrim: makes the leaked free-space map exact. */
  readonly readsZeroesAfterTrim: boolean | null;
}

/** dmsetup, cryptsetup luksDump and systemctl answer in well under a second; 10 s covers a loaded machine. */
const TIMEOUT_MS = 10_000;

/** A dm name we pass as an argument: what dm allows in names, never starting with "-". */
const SAFE_DM_NAME = /^[A-Za-z0-9_.+:@][A-Za-z0-9_.+:@-]*$/;

function walk(
  node: StackNode,
  parent: StackNode | null,
  visit: (node: StackNode, parent: StackNode | null) => void,
): void {
  visit(node, parent);
  for (const child of node.children) {
    walk(child, node, visit);
  }
}

async function readDmTable(context: ProbeContext, name: string): Promise<readonly DmTableLine[] | null> {
  const output = await tryRun(
    context,
    { tool: 'dmsetup', args: ['table', '--', name], timeoutMs: TIMEOUT_MS },
    `Reading the device-mapper table of ${name}`,
  );
  if (output === null) {
    return null;
  }
  if (output.exitCode !== 0) {
    addWarning(context, {
      code: 'PERMISSION_LIMITED',
      message: `dmsetup table ${name} failed (root is needed): ${output.stderr.trim().split('\n')[0] ?? ''}`,
      source: 'dmsetup',
    });
    return null;
  }
  return attempt(context, 'dmsetup', `Reading the table of ${name}`, () =>
    Promise.resolve(parseDmsetupTable(output.stdout)),
  );
}

async function readLuksFlags(context: ProbeContext, backingPath: string): Promise<readonly string[] | null> {
  const output = await tryRun(
    context,
    {
      tool: 'cryptsetup',
      args: ['luksDump', '--dump-json-metadata', '--', backingPath],
      timeoutMs: TIMEOUT_MS,
    },
    `Reading the LUKS2 flags of ${backingPath}`,
  );
  if (output === null || output.exitCode !== 0) {
    return null;
  }
  const header = await attempt(context, 'cryptsetup', `Reading the LUKS2 header of ${backingPath}`, () =>
    Promise.resolve(parseLuks2JsonMetadata(output.stdout)),
  );
  return header?.flags ?? null;
}

/** "enabled" (and the rarely used "enabled-runtime") run the timer (systemctl(1) is-enabled); '' is unknown. */
function timerEnabled(unitFileState: string, loadState: string | undefined): boolean | null {
  if (loadState === 'not-found' || unitFileState === 'not-found') {
    return false;
  }
  return unitFileState === '' ? null : unitFileState.startsWith('enabled');
}

/**
 * Whether fstrim.timer is enabled and when it last ran: a host fact, asked once per run (`assess --all`), with
 * one `systemctl` call. Where systemd runs as init (sd_booted(3): /run/systemd/system exists), one
 * `systemctl show` gives the unit file state and the last trigger; elsewhere (a container, a VM booted
 * without systemd) `show` cannot answer, and `is-enabled`, which reads the unit files, says whether the timer
 * is enabled (when it last ran is then unknown). A bundle collected before this one call replays its
 * `is-enabled` answer (its old `show` answer is not read: it came from a machine without systemd as init, or
 * from one whose bundle did not record /run/systemd/system).
 */
export async function readFstrimTimer(context: ProbeContext): Promise<DiscardStackFacts['fstrimTimer']> {
  if ((await context.host.stat(SYSTEMD_RUNTIME_DIRECTORY))?.kind === 'directory') {
    const show = await tryRunOrUncaptured(context, fstrimTimerCall(true), 'Reading fstrim.timer');
    if (show !== 'uncaptured') {
      if (show === null || show.exitCode !== 0) {
        return null;
      }
      const properties = parseSystemctlShow(show.stdout);
      return {
        enabled: timerEnabled(properties.UnitFileState ?? '', properties.LoadState),
        lastRunAt: systemdTimestampToIso(properties.LastTriggerUSec),
      };
    }
  }
  const enabled = await tryRun(context, fstrimTimerCall(false), 'Checking fstrim.timer');
  if (enabled === null) {
    return null;
  }
  return {
    enabled: timerEnabled(enabled.stdout.trim(), undefined),
    // Without systemd as init the timer has not run in this boot, and `show` could not say when it last did.
    lastRunAt: null,
  };
}

/**
 * Gathers what discard passthrough needs beyond the stack: dm tables (`dmsetup table`, root), persistent
 * LUKS2 flags (`cryptsetup luksDump --dump-json-metadata` of each LUKS2 mapping's backing device),
 * /etc/crypttab, raid456's devices_handle_discard_safely, /proc/self/mountinfo and fstrim.timer. Never throws
 * for a missing tool or file: each gap is a warning and a null fact.
 */
export async function probeDiscardStack(
  host: Host,
  stack: StackNode,
  signal?: AbortSignal,
  /** The fstrim.timer facts when the caller read them already (once for every disk of the machine). */
  fstrimTimer?: DiscardStackFacts['fstrimTimer'],
): Promise<{ facts: Omit<DiscardStackFacts, 'readsZeroesAfterTrim'>; warnings: Warning[] }> {
  const context = createProbeContext(host, signal);
  const dmTables: Record<string, readonly DmTableLine[]> = {};
  const luksFlags: Record<string, readonly string[]> = {};
  const mappings: { node: StackNode; parent: StackNode | null }[] = [];
  walk(stack, null, (node, parent) => {
    if (node.mapperName !== null && SAFE_DM_NAME.test(node.mapperName)) {
      mappings.push({ node, parent });
    }
  });
  for (const { node, parent } of mappings) {
    const name = node.mapperName ?? '';
    const table = await readDmTable(context, name);
    if (table !== null) {
      Object.defineProperty(dmTables, name, { value: table, enumerable: true });
    }
    if (node.dmUuid?.startsWith('CRYPT-LUKS2') === true && parent !== null) {
      const flags = await readLuksFlags(context, parent.path);
      if (flags !== null) {
        Object.defineProperty(luksFlags, name, { value: flags, enumerable: true });
      }
    }
  }
  const crypttabText = await attempt(context, '/etc/crypttab', 'Reading /etc/crypttab', () =>
    host.readText('/etc/crypttab'),
  );
  const raid = await attempt(context, '/sys/module/raid456', 'Reading raid456 parameters', () =>
    host.readText('/sys/module/raid456/parameters/devices_handle_discard_safely'),
  );
  const mountinfo = await attempt(context, '/proc/self/mountinfo', 'Reading mount options', () =>
    host.readText('/proc/self/mountinfo'),
  );
  const mounts =
    mountinfo === null
      ? null
      : await attempt(context, '/proc/self/mountinfo', 'Reading mount options', () =>
          Promise.resolve(parseMountinfo(mountinfo)),
        );
  return {
    facts: {
      dmTables,
      luksFlags,
      crypttab: crypttabText === null ? null : parseCrypttab(crypttabText),
      // The parameter reads "Y" or "N" (drivers/md/raid5.c module_param bool).
      raid456DiscardSafe: raid === null ? null : raid.trim() === 'Y',
      mounts,
      fstrimTimer: fstrimTimer === undefined ? await readFstrimTimer(context) : fstrimTimer,
    },
    warnings: context.warnings,
  };
}
