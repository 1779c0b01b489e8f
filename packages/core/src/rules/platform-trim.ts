import { evidence } from '../domain/recommendation.js';
import type { StorageModel } from '../domain/storage-model.js';
import { platformSource } from '../targets/platform-evidence.js';
import { planSettingsOf, type PlanTargetId } from '../targets/registry.js';
import type { RuleResult } from './rule-result.js';

/**
 * The TRIM rules of macOS and Windows, from the storage model alone (domain/storage-model.ts): whether the
 * platform sends TRIM to the drive and how to turn it on (trimforce, fsutil). The targets' platform plans
 * (targets/<id>/plan.ts) ask for them through the plan's kit (plan/plan-platform.ts). Pure.
 */

/** What `macos-trim` cites and says: the same for every Mac, only whether it acts differs. */
const MACOS_TRIM = {
  ruleId: 'macos-trim',
  fields: ['TRIM Support', 'TRIM Support'],
  actionReason:
    'The drive supports TRIM but macOS does not send it (third-party SSD): `trimforce enable` turns it on for all such drives; Apple warns that a drive which mishandles TRIM may lose data, and the Mac restarts (trimforce(8)).',
  passesReason:
    'macOS sends TRIM to this drive, and APFS keeps sending it under FileVault and APFS encryption.',
  unknownReason:
    'Whether macOS sends TRIM to this drive is unknown (system_profiler "TRIM Support" not read).',
} as const;

/**
 * `macos-trim`: APFS issues TRIM for freed blocks itself, encrypted or not, so FileVault and APFS encryption keep
 * TRIM. macOS trims third-party SSDs only after `trimforce enable`, which Apple warns may lose data on drives
 * that mishandle TRIM and which reboots the Mac (trimforce(8)).
 */
export function macosTrim(storage: StorageModel): RuleResult & { readonly trimforce: boolean } {
  const trim = storage.disk.trim ?? null;
  const trimforce = trim?.driveSupports === true && trim.osSends === false;
  return {
    trimforce,
    ...trimRule(storage, { ...MACOS_TRIM, action: trimforce ? 'trimforce enable' : null }),
  };
}

/** One TRIM recommendation: an action to take, "passes", or "unknown", with the platform's TRIM facts. */
function trimRule(
  storage: StorageModel,
  rule: {
    readonly ruleId: string;
    /** The fields of the platform tool the two facts come from (drive support, OS sends). */
    readonly fields: readonly [string, string];
    readonly action: string | null;
    readonly actionReason: string;
    readonly passesReason: string;
    readonly unknownReason: string;
  },
): RuleResult {
  const { driveSupports, osSends, source } = storage.disk.trim ?? {};
  return {
    recommendations: [
      {
        ruleId: rule.ruleId,
        value: rule.action ?? (osSends === true ? 'passes' : 'unknown'),
        reason:
          rule.action !== null
            ? rule.actionReason
            : osSends === true
              ? rule.passesReason
              : rule.unknownReason,
        evidence: [
          evidence('trim.driveSupports', driveSupports ?? null, platformSource(source, rule.fields[0])),
          evidence('trim.osSends', osSends ?? null, platformSource(source, rule.fields[1])),
        ],
        confidence: osSends === undefined || osSends === null ? 'low' : 'high',
      },
    ],
    findings: [],
  };
}

/**
 * `windows-trim`: NTFS sends TRIM unless `DisableDeleteNotify` is 1 (Microsoft, "fsutil behavior"), and
 * BitLocker, which encrypts below NTFS, forwards it to the drive (no Microsoft page found states this in so many
 * words: the report says it, and `fsutil behavior query DisableDeleteNotify` on the machine is the check). VeraCrypt blocks TRIM on non-system volumes by default and passes it on
 * system encryption (VeraCrypt documentation, "Trim Operation").
 */
export function windowsTrim(
  storage: StorageModel,
  target: PlanTargetId,
): RuleResult & { readonly enableTrim: boolean } {
  const trim = storage.disk.trim ?? null;
  const enableTrim = trim?.osSends === false && trim.driveSupports !== false;
  const through = planSettingsOf(target).windowsTrim ?? '';
  return {
    enableTrim,
    ...trimRule(storage, {
      ruleId: 'windows-trim',
      fields: ['medium', 'DisableDeleteNotify'],
      action: enableTrim ? 'turn TRIM on' : null,
      actionReason: `Windows does not send TRIM (DisableDeleteNotify = 1): fsutil behavior set DisableDeleteNotify 0 turns it on. ${through}`,
      passesReason: `Windows sends TRIM (DisableDeleteNotify = 0). ${through}`,
      unknownReason: `Whether Windows sends TRIM is unknown (fsutil not read). ${through}`,
    }),
  };
}
