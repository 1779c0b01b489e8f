import { MIB } from '../domain/units.js';
import { existingEncryptionOf, plansForLinux, type PlanFacts } from '../rules/facts.js';
import {
  GPT_BACKUP_SECTORS,
  MINIMUM_PARTITION_BYTES,
  type CommandSettings,
  type PlanCommand,
} from './commands.js';
import { activeUseOf, diskUsageOf, type ByteRange, type DiskUsage } from './disk-usage.js';
import { readCommand, type ActivationSwitch, type DiskStep } from '../targets/registry.js';

/** Which invariant a command breaks. */
export type InvariantRule =
  | 'writes-in-use'
  | 'relabels-used-disk'
  | 'writes-existing-data'
  | 'partition-range'
  | 'discard-range'
  | 'layout-disagrees'
  | 'activation-flags'
  | 'power-cycle-stop'
  | 'uninterpreted-write';

/** One broken invariant: the command, the rule and what is wrong, in words for the user. */
export interface InvariantViolation {
  readonly commandId: string;
  readonly rule: InvariantRule;
  readonly message: string;
}

/**
 * The state of the disk as the script leaves it after each command: what was relabelled, created, formatted
 * and opened, and which byte ranges are still never-allocated.
 */
interface Simulation {
  readonly usage: DiskUsage;
  readonly disk: string;
  readonly sector: number;
  relabelled: boolean;
  free: ByteRange[];
  readonly created: Map<string, { number: number; range: ByteRange }>;
  readonly formatted: Set<string>;
  readonly opened: Set<string>;
  /** Visible sectors after a Host Protected Area was set, and the stage that set it. */
  hidden: { visibleSectors: number; stage: number } | null;
}

/** A broken invariant found by one tool's check. */
interface Problem {
  readonly rule: InvariantRule;
  readonly message: string;
}
const problem = (rule: InvariantRule, message: string): Problem => ({ rule, message });

type Check = (
  command: PlanCommand,
  sim: Simulation,
  settings: CommandSettings,
  existingPaths: ReadonlySet<string>,
) => Problem[];

const inside = (range: ByteRange, regions: readonly ByteRange[]): boolean =>
  regions.some((region) => region.startBytes <= range.startBytes && range.endBytes <= region.endBytes);

function subtract(regions: readonly ByteRange[], cut: ByteRange): ByteRange[] {
  return regions.flatMap((region) => {
    if (cut.endBytes <= region.startBytes || cut.startBytes >= region.endBytes) {
      return [region];
    }
    return [
      { startBytes: region.startBytes, endBytes: cut.startBytes },
      { startBytes: cut.endBytes, endBytes: region.endBytes },
    ].filter((part) => part.endBytes > part.startBytes);
  });
}

/** True when the facts let the plan wipe or relabel this disk: wholly never-allocated and nothing in use. */
function mayRelabel(sim: Simulation, settings: CommandSettings): boolean {
  return settings.devicePlaceholder === true || (sim.usage.wholeDiskFree && sim.usage.inUse.length === 0);
}

function relabelProblem(sim: Simulation, what: string): Problem {
  const inUse = sim.usage.inUse.map((item) => item.detail);
  return problem(
    'relabels-used-disk',
    inUse.length > 0
      ? `${what} ${sim.disk}, which holds what is in use (${inUse.join('; ')})`
      : `${what} ${sim.disk}, which the facts do not show wholly never-allocated`,
  );
}

function option(argv: readonly string[], name: string): string | null {
  const index = argv.indexOf(name);
  return index < 0 ? null : (argv[index + 1] ?? null);
}

function checkSgdisk(command: PlanCommand, sim: Simulation, settings: CommandSettings): Problem[] {
  const problems: Problem[] = [];
  const device = command.argv.at(-1);
  if (device !== sim.disk) {
    return [
      problem('uninterpreted-write', `sgdisk acts on ${String(device)}, not the assessed disk ${sim.disk}`),
    ];
  }
  for (const arg of command.argv.slice(1, -1)) {
    if (arg === '--clear' || arg === '-o' || arg === '--zap-all' || arg === '-Z') {
      if (!mayRelabel(sim, settings)) {
        problems.push(relabelProblem(sim, 'relabels'));
      }
      const size = sim.usage.sizeBytes;
      const end =
        sim.hidden === null
          ? size === null
            ? Number.POSITIVE_INFINITY
            : size
          : sim.hidden.visibleSectors * sim.sector;
      sim.relabelled = true;
      sim.free = [
        { startBytes: GPT_BACKUP_SECTORS * sim.sector, endBytes: end - GPT_BACKUP_SECTORS * sim.sector },
      ];
      sim.created.clear();
      continue;
    }
    const created = /^--new=(\d+):(\d+):(\d+)$/.exec(arg);
    if (created !== null) {
      problems.push(
        ...newPartition(sim, settings, Number(created[1]), Number(created[2]), Number(created[3])),
      );
      continue;
    }
    const named = /^--(?:typecode|change-name)=(\d+):/.exec(arg);
    if (named !== null) {
      if (![...sim.created.values()].some((part) => part.number === Number(named[1]))) {
        problems.push(
          problem(
            'writes-existing-data',
            `${arg} changes partition ${String(named[1])}, which the plan did not create`,
          ),
        );
      }
      continue;
    }
    problems.push(problem('uninterpreted-write', `sgdisk option ${arg} is not one the checker can judge`));
  }
  return problems;
}

function newPartition(
  sim: Simulation,
  settings: CommandSettings,
  number: number,
  start: number,
  end: number,
): Problem[] {
  const problems: Problem[] = [];
  const range = { startBytes: start * sim.sector, endBytes: (end + 1) * sim.sector };
  if (!(start < end)) {
    problems.push(
      problem(
        'partition-range',
        `partition ${String(number)} starts at sector ${String(start)}, not before its end ${String(end)}`,
      ),
    );
  }
  if (range.startBytes % MIB !== 0 || range.endBytes % MIB !== 0) {
    problems.push(
      problem(
        'partition-range',
        `partition ${String(number)} (sectors ${String(start)}–${String(end)}) is not aligned to 1 MiB`,
      ),
    );
  }
  if (range.endBytes - range.startBytes < MINIMUM_PARTITION_BYTES) {
    problems.push(
      problem('partition-range', `partition ${String(number)} is smaller than the minimum a volume needs`),
    );
  }
  if (!sim.relabelled && sim.usage.partitions === null) {
    problems.push(
      problem(
        'partition-range',
        `partition ${String(number)} is added to a table whose partitions are unknown`,
      ),
    );
  }
  if ((sim.usage.partitions ?? []).some((partition) => partition.number === number) && !sim.relabelled) {
    problems.push(problem('partition-range', `partition number ${String(number)} is already in use`));
  }
  if (!inside(range, sim.free)) {
    problems.push(
      problem(
        'partition-range',
        `partition ${String(number)} (sectors ${String(start)}–${String(end)}) is not inside never-allocated space within the usable LBAs`,
      ),
    );
  }
  if (settings.space !== null && settings.space.partitionEndSector !== end) {
    problems.push(
      problem(
        'layout-disagrees',
        `partition ${String(number)} ends at sector ${String(end)}, not at the planned end ${String(settings.space.partitionEndSector)} the spare-area advice leaves`,
      ),
    );
  }
  if (sim.hidden !== null && range.endBytes > (sim.hidden.visibleSectors - GPT_BACKUP_SECTORS) * sim.sector) {
    problems.push(
      problem(
        'partition-range',
        `partition ${String(number)} reaches into the range hidden by the Host Protected Area`,
      ),
    );
  }
  sim.free = subtract(sim.free, range);
  const path = /\d$/.test(sim.disk) ? `${sim.disk}p${String(number)}` : `${sim.disk}${String(number)}`;
  sim.created.set(path, { number, range });
  return problems;
}

function checkPartx(command: PlanCommand, sim: Simulation): Problem[] {
  const [, update, nr, number, device, ...rest] = command.argv;
  if (update !== '--update' || nr !== '--nr' || device !== sim.disk || rest.length > 0) {
    return [
      problem(
        'uninterpreted-write',
        `partx ${command.argv.slice(1).join(' ')} is not the plan's re-read of one new partition`,
      ),
    ];
  }
  return [...sim.created.values()].some((part) => String(part.number) === number)
    ? []
    : [
        problem(
          'writes-existing-data',
          `partx re-reads partition ${String(number)}, which the plan did not create`,
        ),
      ];
}

function checkBlkdiscard(command: PlanCommand, sim: Simulation, settings: CommandSettings): Problem[] {
  const offset = Number(option(command.argv, '--offset'));
  const length = Number(option(command.argv, '--length'));
  const device = command.argv.at(-1);
  if (
    device !== sim.disk ||
    command.argv.length !== 6 ||
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length)
  ) {
    return [
      problem(
        'uninterpreted-write',
        `blkdiscard ${command.argv.slice(1).join(' ')} is not a discard of one range of ${sim.disk}`,
      ),
    ];
  }
  const range = { startBytes: offset, endBytes: offset + length };
  const problems: Problem[] = [];
  if (length <= 0 || !inside(range, sim.free)) {
    problems.push(
      problem(
        'discard-range',
        `blkdiscard range [${String(offset)}, ${String(offset + length)}) is not inside never-allocated space`,
      ),
    );
  }
  const planned = settings.space?.discardRange ?? null;
  if (
    planned === null ||
    !inside(range, [{ startBytes: planned.offsetBytes, endBytes: planned.offsetBytes + planned.lengthBytes }])
  ) {
    problems.push(
      problem('discard-range', 'blkdiscard range is not the tail the spare-area advice plans to discard'),
    );
  }
  return problems;
}

/** A volume (LUKS2 or VeraCrypt) may go on a partition the plan created, or on the whole disk only when it may be relabelled and no spare tail is planned. */
function volumeTarget(
  target: string | undefined,
  sim: Simulation,
  settings: CommandSettings,
  what: string,
): Problem[] {
  if (target !== undefined && sim.created.has(target)) {
    sim.formatted.add(target);
    return [];
  }
  if (target === sim.disk) {
    const problems: Problem[] = [];
    if (!mayRelabel(sim, settings)) {
      problems.push(relabelProblem(sim, `${what} formats`));
    }
    if ((settings.space?.unallocatedBytes ?? 0) > 0) {
      problems.push(
        problem(
          'layout-disagrees',
          `${what} formats the whole disk although the plan leaves ${String(settings.space?.unallocatedBytes)} bytes unpartitioned`,
        ),
      );
    }
    sim.formatted.add(target);
    return problems;
  }
  return [
    problem('writes-existing-data', `${what} formats ${String(target)}, which the plan did not create`),
  ];
}

/** The activation flags an open or refresh gives, against the plan's discards and workqueue bypass. */
function checkActivationFlags(switches: readonly ActivationSwitch[], settings: CommandSettings): Problem[] {
  return switches.flatMap(({ option, setting, given }) => {
    if (setting === 'discards') {
      return given === settings.allowDiscards
        ? []
        : [
            problem(
              'activation-flags',
              `${option} is ${settings.allowDiscards ? 'missing although the plan allows discards' : 'given although the plan keeps discards off'}`,
            ),
          ];
    }
    return given === settings.workqueueBypass
      ? []
      : [
          problem(
            'activation-flags',
            `${option} is ${settings.workqueueBypass ? 'missing although the plan bypasses the workqueues' : 'given although the plan keeps the workqueues'}`,
          ),
        ];
  });
}

/** A step of a target's own tool, as the target reads it (TargetCommands.read), on the simulated disk. */
function checkTargetStep(
  command: PlanCommand,
  step: DiskStep,
  sim: Simulation,
  settings: CommandSettings,
  facts: PlanFacts,
  existingPaths: ReadonlySet<string>,
): Problem[] {
  switch (step.kind) {
    case 'format':
      return volumeTarget(step.device, sim, settings, step.step);
    case 'open': {
      const problems = checkActivationFlags(step.switches, settings);
      if (step.device === undefined || !sim.formatted.has(step.device)) {
        problems.push(
          problem(
            'writes-existing-data',
            `${step.step} acts on ${String(step.device)}, which the plan did not format`,
          ),
        );
      }
      if (step.mapping !== undefined) {
        sim.opened.add(step.mapping);
      }
      return problems;
    }
    case 'refresh': {
      const problems = checkActivationFlags(step.switches, settings);
      if (existingEncryptionOf(facts)?.mappingName !== step.mapping) {
        problems.push(
          problem(
            'writes-existing-data',
            `${step.step} acts on ${String(step.mapping)}, which is not the disk's open LUKS mapping`,
          ),
        );
      }
      return problems;
    }
    case 'in-place':
      return checkInPlace(command, sim, existingPaths);
    case 'unjudged':
      return [problem('uninterpreted-write', `${step.step} is not a step the checker can judge`)];
  }
}

/**
 * An in-place step may act on one existing partition (or a table-less disk used whole) only while nothing
 * uses it: not mounted, not swap, not held by a mapped device (the in-place strategy's own preconditions).
 */
function checkInPlace(command: PlanCommand, sim: Simulation, existingPaths: ReadonlySet<string>): Problem[] {
  const targets = command.argv.filter((word) => existingPaths.has(word) || word === sim.disk);
  if (targets.length !== 1) {
    return [
      problem('uninterpreted-write', `${command.id} names no single existing partition to work on in place`),
    ];
  }
  const target = targets[0] ?? '';
  const users = sim.usage.inUse.filter(
    (item) =>
      (item.path === target && item.kind !== 'whole-disk-signature') ||
      (target === sim.disk && item.kind !== 'whole-disk-signature'),
  );
  return users.length === 0
    ? []
    : [
        problem(
          'writes-in-use',
          `${command.id} works in place on ${target}, which is in use (${users.map((item) => item.detail).join('; ')})`,
        ),
      ];
}

function checkMkfs(command: PlanCommand, sim: Simulation): Problem[] {
  const target = command.argv.at(-1) ?? '';
  const name = target.startsWith('/dev/mapper/') ? target.slice('/dev/mapper/'.length) : null;
  return name !== null && sim.opened.has(name)
    ? []
    : [
        problem(
          'writes-existing-data',
          `${String(command.argv[0])} writes to ${target}, which is not a volume the plan opened`,
        ),
      ];
}

function checkTee(command: PlanCommand): Problem[] {
  return command.argv.length === 3 &&
    command.argv[1] === '-a' &&
    command.argv[2] === '/etc/crypttab' &&
    command.stdin === 'text'
    ? []
    : [
        problem(
          'uninterpreted-write',
          `tee ${command.argv.slice(1).join(' ')} writes a file the plan does not manage`,
        ),
      ];
}

function checkHdparm(command: PlanCommand, sim: Simulation, settings: CommandSettings): Problem[] {
  const device = command.argv.at(-1);
  if (device !== sim.disk) {
    return [
      problem('uninterpreted-write', `hdparm acts on ${String(device)}, not the assessed disk ${sim.disk}`),
    ];
  }
  const args = command.argv.slice(1, -1);
  if (args[0] === '--user-master' && (args[2] === '--security-set-pass' || args[2] === '--security-erase')) {
    return mayRelabel(sim, settings) ? [] : [relabelProblem(sim, 'secure-erases')];
  }
  const hpa = /^p(\d+)$/.exec(args[1] ?? '');
  if (args[0] === '-N' && hpa !== null && args[2] === '--yes-i-know-what-i-am-doing' && args.length === 3) {
    sim.hidden = { visibleSectors: Number(hpa[1]), stage: command.stage ?? 1 };
    return mayRelabel(sim, settings) ? [] : [relabelProblem(sim, 'hides the tail of')];
  }
  return [problem('uninterpreted-write', `hdparm ${args.join(' ')} is not a step the checker can judge`)];
}

/** How the checker judges the tool of a step every target shares. */
interface SharedStep {
  readonly check: Check;
  /** It writes the disk: its partition table, its never-allocated space, its hidden area or a new volume. */
  readonly writesDisk: boolean;
  /** It acts on existing data by design (an in-place step, judged by the in-place strategy's preconditions). */
  readonly inPlace: boolean;
}

/**
 * The tools of the steps every target shares, in one table: the partition layout, the spare tail and the Host
 * Protected Area (plan/commands.ts), the filesystem and the crypttab line of a new volume, and the filesystem's
 * check and shrink around an in-place encryption (plan/commands-in-place.ts). They are judged here, since they
 * are no target's: a target's own tools (cryptsetup, veracrypt) are read by the target (TargetCommands.read,
 * targets/registry.ts readCommand), which says what each of its commands does to the disk.
 */
const SHARED_STEPS: ReadonlyMap<string, SharedStep> = new Map<string, SharedStep>([
  ['sgdisk', { check: checkSgdisk, writesDisk: true, inPlace: false }],
  ['partx', { check: (command, sim) => checkPartx(command, sim), writesDisk: true, inPlace: false }],
  ['blkdiscard', { check: checkBlkdiscard, writesDisk: true, inPlace: false }],
  ['hdparm', { check: checkHdparm, writesDisk: true, inPlace: false }],
  ['mkfs.ext4', { check: (command, sim) => checkMkfs(command, sim), writesDisk: true, inPlace: false }],
  ['tee', { check: (command) => checkTee(command), writesDisk: true, inPlace: false }],
  [
    'e2fsck',
    {
      check: (command, sim, _, existing) => checkInPlace(command, sim, existing),
      writesDisk: false,
      inPlace: true,
    },
  ],
  [
    'resize2fs',
    {
      check: (command, sim, _, existing) => checkInPlace(command, sim, existing),
      writesDisk: false,
      inPlace: true,
    },
  ],
]);

/** The tools of the shared steps (no target's own): tests/architecture/target-names.test.ts lets plan/ name them. */
export const SHARED_STEP_TOOLS: readonly string[] = [...SHARED_STEPS.keys()];

/**
 * Checks the commands of a Linux plan against the invariants no flag can override (issue 10): no write at all
 * to a disk in use (issue 25: not its partition table, not its never-allocated space); no write to a
 * mounted partition, swap or mapped device; no wipe or relabel of a disk that holds one, or of a disk whose
 * emptiness is unknown; no write to a whole-disk filesystem or to any existing partition; every new
 * partition aligned, start before end, inside never-allocated space within the usable LBAs, ending where the
 * spare-area advice says; every discard inside never-allocated space and the planned tail; no whole-disk
 * format when a spare tail is planned; the open carries the planned flags; nothing runs after a Host
 * Protected Area change in the same stage. Pure: it reads argv, never trusting the builder's own account.
 */
export function checkCommandInvariants(
  facts: PlanFacts,
  settings: CommandSettings,
  commands: readonly PlanCommand[],
): InvariantViolation[] {
  if (!plansForLinux(facts)) {
    return [];
  }
  const usage = diskUsageOf(facts);
  const sim: Simulation = {
    usage,
    disk: settings.devicePath,
    sector: settings.space?.logicalSectorBytes ?? usage.logicalSectorBytes ?? 512,
    relabelled: false,
    free: [...usage.freeRegions],
    created: new Map(),
    formatted: new Set(),
    opened: new Set(),
    hidden: null,
  };
  const inUsePaths = new Set(usage.inUse.map((item) => item.path));
  const existingPaths = new Set(
    (usage.partitions ?? []).flatMap((partition) => (partition.path === null ? [] : [partition.path])),
  );
  const violations: InvariantViolation[] = [];
  const add = (command: PlanCommand, rule: InvariantRule, message: string): void => {
    violations.push({ commandId: command.id, rule, message });
  };
  const active = activeUseOf(usage);
  for (const command of commands) {
    const tool = command.argv[0] ?? '';
    const shared = SHARED_STEPS.get(tool);
    const step = shared === undefined ? readCommand(command).step : null;
    const writesDisk = shared?.writesDisk ?? step?.writesDisk ?? false;
    const inPlace = shared?.inPlace ?? step?.kind === 'in-place';
    if (active.length > 0 && writesDisk) {
      add(
        command,
        'writes-in-use',
        `${command.id} writes ${sim.disk}, which is in use (${active.map((item) => item.detail).join('; ')}): a partition-table change or a discard is a write too`,
      );
    }
    if (sim.hidden !== null && (command.stage ?? 1) <= sim.hidden.stage && command.id !== 'hpa-set') {
      add(
        command,
        'power-cycle-stop',
        `${command.id} runs in the same stage as the Host Protected Area change; the drive must be power-cycled first`,
      );
    }
    for (const word of command.argv) {
      if (inUsePaths.has(word) && word !== sim.disk) {
        add(
          command,
          'writes-in-use',
          `${command.id} names ${word}, which is in use (${usage.inUse
            .filter((item) => item.path === word)
            .map((item) => item.detail)
            .join('; ')})`,
        );
      } else if (existingPaths.has(word) && !sim.created.has(word) && !inPlace) {
        add(command, 'writes-existing-data', `${command.id} names the existing partition ${word}`);
      }
    }
    const problems =
      shared !== undefined
        ? shared.check(command, sim, settings, existingPaths)
        : step !== null
          ? checkTargetStep(command, step, sim, settings, facts, existingPaths)
          : null;
    if (problems === null) {
      add(
        command,
        'uninterpreted-write',
        `${tool} is not a command the invariant checker can judge, so it is not emitted`,
      );
      continue;
    }
    for (const found of problems) {
      add(command, found.rule, found.message);
    }
  }
  return violations;
}
