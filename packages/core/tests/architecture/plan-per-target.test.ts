import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 26 item 2: each target plans itself (targets/<id>/plan.ts: EncryptionTarget.platformPlans on macOS and
// Windows, EncryptionTarget.volumePlan on Linux), so the plan layer asks the registry for the target's hook instead
// of branching on the platform or on what kind of target it plans. This test reads packages/core/src/plan/ and
// fails on a comparison with a platform name and on a Linux branch of a target; target names are checked by
// target-names.test.ts.
const planFolder = fileURLToPath(new URL('../../src/plan/', import.meta.url));

/**
 * fio-jobs.ts picks fio's I/O engine for the machine the benchmark runs on (libaio, posixaio, windowsaio: fio(1)
 * "ioengine"), a property of the platform's kernel, not of a target's plan.
 */
const EXEMPT = ['fio-jobs.ts'];

const PLATFORMS = ['linux', 'darwin', 'win32'];

/** The ways code compares a value with a name: ===, !==, switch cases, includes(). */
function comparisonsOf(name: string): RegExp[] {
  const quoted = `(['"\`])${name}\\1`;
  return [
    new RegExp(`[!=]==\\s*${quoted}`),
    new RegExp(`${quoted}\\s*[!=]==`),
    new RegExp(`\\bcase\\s+${quoted}\\s*:`),
    new RegExp(`\\.includes\\(\\s*${quoted}\\s*\\)`),
  ];
}

function offenders(): string[] {
  const patterns = PLATFORMS.flatMap(comparisonsOf);
  return readdirSync(planFolder)
    .filter((name) => name.endsWith('.ts') && !EXEMPT.includes(name))
    .flatMap((name) =>
      readFileSync(path.join(planFolder, name), 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const code = line.replace(/\/\/.*$/, '');
          return patterns.some((pattern) => pattern.test(code))
            ? [`plan/${name}:${String(index + 1)}: ${line.trim()}`]
            : [];
        }),
    );
}

describe('the plan layer does not branch on the platform', () => {
  it('has no comparison with a platform name in packages/core/src/plan (a target’s platform plan is its own)', () => {
    expect(offenders()).toEqual([]);
  });

  it('would find one', () => {
    const patterns = PLATFORMS.flatMap(comparisonsOf);
    expect(patterns.some((pattern) => pattern.test("if (platform === 'win32') {"))).toBe(true);
    expect(patterns.some((pattern) => pattern.test('platform !== "linux" ||'))).toBe(true);
  });
});

/**
 * Reading what kind of target is planned (its key derivation, its engine's name, who picks its cipher) is how a
 * target's branch starts: `rulesOf.keyDerivation === 'luks2-keyslot'`, `engine.name === 'dm-crypt'`.
 */
const TARGET_KIND = [
  /\.keyDerivation\b/,
  /\bengine\.name\b/,
  /\b(rulesOf|planSettingsOf\([^)]*\)|settingsOf\([^)]*\))\??\.cipher\b/,
];

/** A Linux host test and a target's settings read on one line: `rulesOf.dmCryptParameters && linuxHost`. */
const LINUX_HOST = /\blinuxHost\b|\bplansForLinux\(|\bosOf\(/;
const TARGET_SETTING = /\brulesOf\b|\bplanSettingsOf\(|\btargetOf\(|\bplanCommandsOf\(/;

/**
 * The rules only a target's own volume plan combines (its key derivation, GRUB, the host kernel's cipher,
 * dm-crypt's tunables): plan/volume-kit.ts hands them to the target's hook, and no other plan module calls them.
 */
const TARGET_RULES = [
  'grub-boot',
  'dm-crypt-tunables',
  'kernel-aes-xts-upgrade',
  'retpoline-aes-xts',
  'veracrypt-argon2',
];
const KIT = 'volume-kit.ts';

function linuxBranches(name: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    const kind = TARGET_KIND.some((pattern) => pattern.test(code));
    const hostAndTarget = LINUX_HOST.test(code) && TARGET_SETTING.test(code);
    const rule =
      name !== KIT && TARGET_RULES.some((rule) => new RegExp(`from '\\.\\./rules/${rule}\\.js'`).test(code));
    return kind || hostAndTarget || rule ? [`plan/${name}:${String(index + 1)}: ${line.trim()}`] : [];
  });
}

describe('the plan layer has no Linux branch of a target (targets/<id>/plan.ts volumePlan)', () => {
  it('reads no target kind, tests no Linux host beside a target setting, calls no target-only rule', () => {
    const found = readdirSync(planFolder)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => linuxBranches(name, readFileSync(path.join(planFolder, name), 'utf8')));
    expect(found).toEqual([]);
  });

  it.each([
    "  if (rulesOf.keyDerivation === 'luks2-keyslot') {",
    "    ...(engine.name === 'dm-crypt' && linuxHost",
    "  const cipherRules = rulesOf.cipher === 'own-algorithm' ? [] : [mode, keySize];",
    "    ...(rulesOf.dmCryptParameters && linuxHost && strategy.kind !== 'replace-first'",
    '  if (planSettingsOf(options.targetTool).refreshOpenVolume && plansForLinux(facts)) {',
    "import { bootOnVolume, findGrubBootPbkdf2 } from '../rules/grub-boot.js';",
  ])('catches %s (the check itself can fail)', (line) => {
    expect(linuxBranches('plan.ts', line)).toHaveLength(1);
  });

  it('lets the kit import the rules it hands to the targets', () => {
    expect(
      linuxBranches(KIT, "import { findDmCryptTunables } from '../rules/dm-crypt-tunables.js';"),
    ).toEqual([]);
  });
});
