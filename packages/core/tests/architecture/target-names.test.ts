import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanCommand } from '../../src/domain/plan-command.js';
import { SHARED_STEP_TOOLS } from '../../src/plan/invariants.js';
import { ENCRYPTION_TARGETS } from '../../src/targets/registry.js';
import { volumeInput } from '../support/volume-input.js';

// Issue 26 item 2: what a target is lives in its own folder (packages/core/src/targets/<id>/), and every other
// module asks the registry (targets/registry.ts). This test reads the sources of the three packages and fails on a
// comparison with a registered target's name outside targets/, and on a map keyed by the whole list of targets.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const targetsFolder = path.join(root, 'packages/core/src/targets');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      return full === targetsFolder || entry.name === 'node_modules' || entry.name === 'dist'
        ? []
        : sourceFiles(full);
    }
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The ways code compares a value with a name (===, !==, switch cases, includes()) or falls back to it (??). */
function comparisonsOf(name: string): RegExp[] {
  const quoted = `(['"\`])${escape(name)}\\1`;
  return [
    new RegExp(`[!=]==\\s*${quoted}`),
    new RegExp(`${quoted}\\s*[!=]==`),
    new RegExp(`\\bcase\\s+${quoted}\\s*:`),
    new RegExp(`\\.includes\\(\\s*${quoted}\\s*\\)`),
    new RegExp(`\\?\\?\\s*${quoted}`),
  ];
}

/** Maps keyed by every target (or every plan target, every benchmark backend) restate the registry. */
const WHOLE_LIST_MAP = /Record<\s*(TargetTool|PlanTargetId|TargetId|BackendId|Plan\['targetTool'\])\b/;

function offenders(files: readonly string[], names: readonly string[]): string[] {
  const patterns = names.flatMap((name) => comparisonsOf(name).map((pattern) => ({ name, pattern })));
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const code = line.replace(/\/\/.*$/, '');
        const hit =
          patterns.find(({ pattern }) => pattern.test(code))?.name ??
          (WHOLE_LIST_MAP.test(code) ? 'a map over the target list' : null);
        return hit === null
          ? []
          : [`${path.relative(root, file)}:${String(index + 1)} (${hit}): ${line.trim()}`];
      }),
  );
}

const ids = ENCRYPTION_TARGETS.map((target) => target.id);

describe('no code outside packages/core/src/targets compares a target name', () => {
  it('reads every registered target', () => {
    expect(ids).toEqual(['fscrypt', 'luks2', 'veracrypt', 'apfs', 'bitlocker', 'luks2-opal']);
  });

  it('finds none in core, cli and desktop sources', () => {
    const files = ['core', 'cli', 'desktop'].flatMap((name) =>
      sourceFiles(path.join(root, 'packages', name, 'src')),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(offenders(files, ids)).toEqual([]);
  });

  it.each([
    "if (tool === 'veracrypt') {",
    "if ('luks2' !== options.targetTool) {",
    '    case "apfs":',
    "if (backends.includes('fscrypt')) {",
    'if (target === `luks2-opal`) {',
    'const NAMES: Readonly<Record<TargetTool, string>> = {',
    "        variant: run.target.variant ?? 'luks2',",
  ])('catches %s (the check itself can fail)', (line) => {
    const matched =
      ids.some((id) => comparisonsOf(id).some((pattern) => pattern.test(line))) || WHOLE_LIST_MAP.test(line);
    expect(matched).toBe(true);
  });

  it.each(["argv: ['veracrypt', '-t']", "const kind = 'luks2-keyslot' === x;", "{ tool: 'fscrypt', args }"])(
    'lets %s pass (a name used, not compared)',
    (line) => {
      expect(ids.some((id) => comparisonsOf(id).some((pattern) => pattern.test(line)))).toBe(false);
    },
  );
});

// Issue 26 item 2, each target owns "its commands per strategy and platform": the plan's checks
// (plan/consistency.ts, plan/invariants.ts) ask the targets what a command does (TargetCommands.read through
// targets/registry.ts readCommand). So no file of plan/ or rules/ names a target's own command id, nor compares
// with (or keys a table by) a target's own tool. The tools of the steps every target shares (sgdisk, mkfs.ext4,
// tee, …: plan/invariants.ts SHARED_STEP_TOOLS) stay with the plan.

/** The targets' command builders: targets/<id>/commands.ts and the Windows helper. */
function targetCommandSources(): string[] {
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name === 'commands.ts' || entry.name === 'windows-commands.ts') {
        files.push(readFileSync(full, 'utf8'));
      }
    }
  };
  walk(targetsFolder);
  return files;
}

const sampleInput = volumeInput({
  workqueueBypass: true,
  veracrypt: { encryption: 'AES', kdf: { hash: 'sha512', pim: 485 } },
});

/** Every command the targets' builders make from a sample input, on every platform each exists on. */
const builtCommands: PlanCommand[] = ENCRYPTION_TARGETS.flatMap((target) => {
  const commands = target.commands;
  return commands === null
    ? []
    : target.platforms.flatMap((platform) => {
        const input = { ...sampleInput, platform };
        const inPlace = commands.inPlace?.(input, '32M') ?? null;
        return [
          ...commands.volume(input),
          ...(commands.refresh?.(input, { mappingName: 'data', storesActivationFlags: true }) ?? []),
          ...(inPlace === null ? [] : [inPlace.encrypt, ...inPlace.open, ...inPlace.atBoot]),
        ];
      });
});

const commandSources = targetCommandSources();

/** The ids of the targets' own commands: those built, and those their builders spell out (`id: '…'`). */
const ownCommandIds = [
  ...new Set([
    ...builtCommands.map((command) => command.id),
    ...commandSources.flatMap((text) =>
      [...text.matchAll(/\bid:\s*'([a-z0-9-]+)'/g)].map((match) => match[1] ?? ''),
    ),
  ]),
].filter((id) => id !== '' && !ids.includes(id));

/** The targets' own tools (argv[0] of their commands), not those of the shared steps. */
const ownTools = [
  ...new Set([
    ...builtCommands.map((command) => command.argv[0] ?? ''),
    ...commandSources.flatMap((text) =>
      [...text.matchAll(/\bargv:\s*\[\s*'([^']+)'/g)].map((match) => match[1] ?? ''),
    ),
  ]),
].filter((tool) => tool !== '' && !SHARED_STEP_TOOLS.includes(tool));

/**
 * A target's command id in any quoted literal, or its tool in a comparison, a list tested with includes() or as
 * the key of a table of checks.
 */
function namingsOf(id: string | null, tool: string | null): RegExp[] {
  return [
    ...(id === null ? [] : [new RegExp(`(['"\`])${escape(id)}\\1`)]),
    ...(tool === null
      ? []
      : [
          ...comparisonsOf(tool),
          new RegExp(`(['"])${escape(tool)}\\1[^\\]]*\\]\\s*\\.includes\\(`),
          // A table of checks keyed by the tool: `tool: (command) => …`, `tool: checkTool`, `['tool', { check…`.
          new RegExp(`^\\s*(['"]?)${escape(tool)}\\1\\s*:\\s*(\\(\\s*command\\b|check[A-Z])`),
          new RegExp(`\\[\\s*(['"])${escape(tool)}\\1\\s*,\\s*[{(a-zA-Z]`),
        ]),
  ];
}

/** Lines of plan/ and rules/ that name a tool for another reason than the plan's commands: each says why. */
const NOT_COMMANDS: readonly { file: string; name: string; why: string }[] = [
  {
    file: 'packages/core/src/rules/cipher-speed.ts',
    name: 'cryptsetup',
    why: 'the source of a cipher benchmark row (cryptsetup benchmark or openssl speed), a fact, not a command',
  },
  {
    file: 'packages/core/src/rules/facts.ts',
    name: 'veracrypt',
    why: 'the stack layer kind of an open VeraCrypt mapping (discardPassthrough), a fact, not a command',
  },
];

function commandNamings(files: readonly string[]): string[] {
  const patterns = [
    ...ownCommandIds.map((id) => ({ name: id, patterns: namingsOf(id, null) })),
    ...ownTools.map((tool) => ({ name: tool, patterns: namingsOf(null, tool) })),
  ];
  return files.flatMap((file) => {
    const relative = path.relative(root, file);
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
        const hit = patterns.find(
          ({ name, patterns: forName }) =>
            forName.some((pattern) => pattern.test(code)) &&
            !NOT_COMMANDS.some((allowed) => allowed.file === relative && allowed.name === name),
        );
        return hit === undefined ? [] : [`${relative}:${String(index + 1)} (${hit.name}): ${line.trim()}`];
      });
  });
}

describe("plan/ and rules/ read a target's commands through the target (TargetCommands.read)", () => {
  it("knows the targets' own command ids and tools, and not the shared steps' tools", () => {
    expect(ownCommandIds).toEqual(
      expect.arrayContaining([
        'luks-format',
        'luks-open',
        'crypttab-entry',
        'in-place-reencrypt',
        'veracrypt-create',
      ]),
    );
    expect(ownCommandIds).toEqual(
      expect.arrayContaining(['bitlocker-enable', 'filevault-enable', 'apfs-add-volume']),
    );
    expect(ownTools).toEqual(expect.arrayContaining(['cryptsetup', 'veracrypt', 'diskutil', 'manage-bde']));
    expect(ownTools).not.toContain('tee');
    expect(ownTools).not.toContain('mkfs.ext4');
  });

  it('finds none in plan/ and rules/', () => {
    const files = ['plan', 'rules'].flatMap((folder) =>
      sourceFiles(path.join(root, 'packages/core/src', folder)),
    );
    expect(files.length).toBeGreaterThan(30);
    expect(commandNamings(files)).toEqual([]);
  });

  it.each([
    ["if (tool === 'cryptsetup' && action === 'open') {", 'cryptsetup'],
    ["const words = command.id === 'crypttab-entry' ? text : argv;", 'crypttab-entry'],
    ["return ['sgdisk', 'partx', 'veracrypt', 'tee'].includes(tool ?? '');", 'veracrypt'],
    ['    cryptsetup: (command) => checkCryptsetup(command, sim),', 'cryptsetup'],
    ["  ['veracrypt', { check: checkVeracrypt, writesDisk: true }],", 'veracrypt'],
    ["    return unmount('in-place-reencrypt');", 'in-place-reencrypt'],
    ["  case 'manage-bde':", 'manage-bde'],
  ])('catches %s (the check itself can fail)', (line, name) => {
    const named = [
      ...ownCommandIds.filter((id) => namingsOf(id, null).some((pattern) => pattern.test(line))),
      ...ownTools.filter((tool) => namingsOf(null, tool).some((pattern) => pattern.test(line))),
    ];
    expect(named).toContain(name);
  });

  it.each([
    "evidence: [sourceOf('cryptsetup', 'luksDump --dump-json-metadata')],",
    "  ['sgdisk', { check: checkSgdisk, writesDisk: true, inPlace: false }],",
    "if (tool === 'tee') {",
    "const id = 'partition-layout';",
    '  veracrypt: () => veracryptRules(facts, options),',
  ])('lets %s pass (a fact source, or a shared step)', (line) => {
    expect(
      ownCommandIds.some((id) => namingsOf(id, null).some((pattern) => pattern.test(line))) ||
        ownTools.some((tool) => namingsOf(null, tool).some((pattern) => pattern.test(line))),
    ).toBe(false);
  });
});
