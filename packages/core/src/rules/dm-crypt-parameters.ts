import {
  evidence,
  mediaKindEvidence,
  type Evidence,
  type Finding,
  type Recommendation,
} from '../domain/recommendation.js';
import { planSettingsOf, targetOfLayer } from '../targets/registry.js';
import { sourceOf } from '../domain/source.js';
import type { TargetMeasurement } from '../domain/io-benchmark.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import type { CipherChoice } from './cipher.js';
import {
  discardStopOf,
  plansForLinux,
  rotationalOf,
  trimSourceOf,
  type DeepPartial,
  type PlanFacts,
} from './facts.js';
import { isKernelAtLeast } from './kernel-version.js';
import { measuredLuks2Targets } from './performance-model.js';
import { differenceBeyondSpread, type MeasuredRange } from './measured-difference.js';
import type { RuleResult } from './rule-result.js';

const sysfsSource = sourceOf('lsblk', 'log-sec/phy-sec');
const optionSource = (name: string) => sourceOf('encplan', `options.${name}`);

/** LUKS2 sector sizes are 512…4096 (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc); 4096 is the biggest single lever (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes). */
const LUKS2_MAX_SECTOR_BYTES = 4096;

/**
 * `sector-size`: 4096-byte encryption sectors when the device allows (≥ logical sector size, LUKS2 only):
 * kernel AES-XTS runs +117 … +155 % faster on 4096-byte than 512-byte messages (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes); Adiantum's speed is
 * quoted at 4096 (Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648).
 */
export function recommendSectorSize(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  choice: CipherChoice,
): RuleResult & { readonly sectorSizeBytes: number | null } {
  if (planSettingsOf(options.targetTool)?.dmCryptParameters !== true) {
    return { recommendations: [], findings: [], sectorSizeBytes: null };
  }
  const logical = facts.disk?.logicalSectorBytes ?? null;
  const physical = facts.disk?.physicalSectorBytes ?? null;
  const reasons: Evidence[] = [
    evidence('disk.logicalSectorBytes', logical, sysfsSource),
    evidence('disk.physicalSectorBytes', physical, sysfsSource),
    evidence('cipher', choice.spec, sourceOf('encplan', 'rule cipher-mode')),
  ];
  if (logical !== null && logical > LUKS2_MAX_SECTOR_BYTES) {
    return {
      recommendations: [
        {
          ruleId: 'sector-size',
          value: logical,
          reason: `The device's logical sector (${String(logical)} bytes) is the smallest size dm-crypt may use.`,
          evidence: reasons,
          confidence: 'high',
        },
      ],
      findings: [],
      sectorSizeBytes: logical,
    };
  }
  // cryptsetup warns that a sector larger than the physical one is not power-fail atomic on some devices (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc).
  const caveat =
    physical !== null && physical < LUKS2_MAX_SECTOR_BYTES
      ? `; the drive reports ${String(physical)}-byte physical sectors, so a 4096-byte write is not guaranteed atomic on power loss (journaling filesystems cope), and every filesystem or LVM volume group on top must use 4096-byte blocks`
      : '';
  const recommendation: Recommendation = {
    ruleId: 'sector-size',
    value: LUKS2_MAX_SECTOR_BYTES,
    reason: `4096-byte encryption sectors need one cipher call per 4 KiB instead of eight, which roughly doubles kernel AES-XTS throughput over 512-byte sectors${caveat}.`,
    evidence: reasons,
    confidence: physical === null || physical >= LUKS2_MAX_SECTOR_BYTES ? 'high' : 'medium',
  };
  return { recommendations: [recommendation], findings: [], sectorSizeBytes: LUKS2_MAX_SECTOR_BYTES };
}

function meanThroughput(targets: readonly DeepPartial<TargetMeasurement>[]): number | null {
  const values = targets
    .flatMap((target) => target.profiles ?? [])
    .map((profile) => profile.summary?.medianBytesPerSecond)
    .filter((v): v is number => v !== undefined);
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * The targets' mean throughput as a range: the mean of the profiles' medians, and the means of their slowest and
 * fastest runs (a summary without them: its median ± half its spreadPercent). The range rests on the recorded
 * runs only, so where the median lies among them does not move it; spread unknown when a profile ran once.
 */
function meanThroughputRange(targets: readonly DeepPartial<TargetMeasurement>[]): MeasuredRange | null {
  const summaries = targets
    .flatMap((target) => target.profiles ?? [])
    .map((profile) => profile.summary)
    .filter(
      (summary) => summary?.medianBytesPerSecond !== undefined && summary.medianBytesPerSecond !== null,
    );
  if (summaries.length === 0) {
    return null;
  }
  const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const ends = summaries.map((summary) => {
    const median = summary?.medianBytesPerSecond ?? 0;
    const half = (median * (summary?.spreadPercent ?? 0)) / 200;
    return {
      median,
      low: summary?.minBytesPerSecond ?? median - half,
      high: summary?.maxBytesPerSecond ?? median + half,
    };
  });
  return {
    value: mean(ends.map((end) => end.median)),
    low: mean(ends.map((end) => end.low)),
    high: mean(ends.map((end) => end.high)),
    spreadKnown: summaries.every((summary) => (summary?.runCount ?? 0) >= 2),
  };
}

/**
 * The largest run-to-run spread of the targets' profiles (fio repeats, RunSummary.spreadPercent); null when a
 * profile ran once or does not say, since one run shows no spread.
 */
function runSpreadPercent(targets: readonly DeepPartial<TargetMeasurement>[]): number | null {
  const summaries = targets.flatMap((target) => target.profiles ?? []).map((profile) => profile.summary);
  const spreads = summaries.map((summary) =>
    summary?.spreadPercent === undefined || (summary.runCount ?? 0) < 2 ? null : summary.spreadPercent,
  );
  return spreads.length === 0 || spreads.includes(null)
    ? null
    : Math.ceil(Math.max(...spreads.filter((spread): spread is number => spread !== null)));
}

/**
 * `workqueue-bypass`: `--perf-no_read_workqueue --perf-no_write_workqueue` (kernel ≥ 5.9, Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*) for fast
 * non-rotational devices, decided by measurement when both variants were measured. The flags were aimed at
 * fast, low-latency devices; rotational disks keep the defaults (Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*).
 */
export function recommendWorkqueueBypass(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly bypass: boolean } {
  if (planSettingsOf(options.targetTool)?.dmCryptParameters !== true || !plansForLinux(facts)) {
    return { recommendations: [], findings: [], bypass: false };
  }
  const kernel = facts.machine?.os?.kernel ?? null;
  const rotational = rotationalOf(facts);
  const atLeast59 = isKernelAtLeast(kernel, 5, 9);
  const reasons: Evidence[] = [
    evidence('machine.os.kernel', kernel, sourceOf('uname', 'release')),
    mediaKindEvidence(rotational),
  ];
  const luks2 = measuredLuks2Targets(facts);
  const withFlags = luks2.filter((row) => row.noWorkqueues).map((row) => row.target);
  const without = luks2.filter((row) => !row.noWorkqueues).map((row) => row.target);
  const fioSource = (targets: readonly DeepPartial<TargetMeasurement>[]) =>
    sourceOf('fio', targets[0]?.variant ?? null);
  const measuredWith = meanThroughput(withFlags);
  const measuredWithout = meanThroughput(without);
  const spread = runSpreadPercent([...withFlags, ...without]);
  const measuredEvidence =
    measuredWith === null || measuredWithout === null
      ? []
      : [
          evidence('mean encrypted throughput with bypass (bytes/s)', measuredWith, fioSource(withFlags)),
          evidence('mean encrypted throughput without bypass (bytes/s)', measuredWithout, fioSource(without)),
          evidence('largest spread of the repeated runs (%)', spread, fioSource([...withFlags, ...without])),
        ];
  // The measurement decides only when the difference is larger than the runs' own spread (issue 24: a
  // recommendation that rests on a measured difference changes only when the difference exceeds its spread).
  let undecided = '';
  if (atLeast59 !== false && measuredWith !== null && measuredWithout !== null) {
    const gainPercent = Math.round((measuredWith / measuredWithout - 1) * 100);
    const better = measuredWith > measuredWithout;
    const differenceText = better ? `${String(gainPercent)} % faster` : `${String(-gainPercent)} % slower`;
    const withRange = meanThroughputRange(withFlags);
    const withoutRange = meanThroughputRange(without);
    const verdict =
      withRange === null || withoutRange === null
        ? 'unknown'
        : differenceBeyondSpread(withRange, withoutRange);
    if (verdict === 'above' || verdict === 'below') {
      return {
        recommendations: [
          {
            ruleId: 'workqueue-bypass',
            value: better,
            reason: better
              ? `Bypassing dm-crypt's workqueues measured ${differenceText} on this device, beyond the ${String(spread)} % spread of the repeated runs, so store the flags in the header with --persistent.`
              : `Bypassing dm-crypt's workqueues measured ${differenceText} on this device, beyond the ${String(spread)} % spread of the repeated runs, so keep the defaults.`,
            evidence: [...reasons, ...measuredEvidence],
            confidence: 'high',
          },
        ],
        findings: [],
        bypass: better,
      };
    }
    undecided =
      verdict === 'unknown' || spread === null
        ? `Bypassing the workqueues measured ${differenceText}, but from single runs whose spread is unknown, so the measurement does not decide. `
        : `Bypassing the workqueues measured ${differenceText}, within the ${String(spread)} % spread of the repeated runs, so the measurement does not decide. `;
  }
  if (atLeast59 !== true) {
    return {
      recommendations: [
        {
          ruleId: 'workqueue-bypass',
          value: false,
          reason:
            atLeast59 === false
              ? 'The no_read_workqueue/no_write_workqueue options need Linux 5.9 or later; this kernel is older.'
              : 'The kernel version is unknown, and the workqueue options need Linux 5.9 or later.',
          evidence: reasons,
          confidence: atLeast59 === false ? 'high' : 'low',
        },
      ],
      findings: [],
      bypass: false,
    };
  }
  const fast = rotational === false;
  return {
    recommendations: [
      {
        ruleId: 'workqueue-bypass',
        value: fast,
        reason: `${undecided}${
          fast
            ? "On this flash device and kernel, bypassing dm-crypt's read and write workqueues removes the queueing that made stock dm-crypt several times slower than the raw device in Cloudflare's tests; measure both to confirm."
            : rotational === true
              ? 'The workqueue bypass was built for fast, low-latency devices; a rotational disk is limited by seeks, so keep the defaults.'
              : 'Whether the device is flash is unknown, so keep the defaults until both variants are measured.'
        }`,
        evidence: [...reasons, ...measuredEvidence],
        confidence: 'medium',
      },
    ],
    findings: [],
    bypass: fast,
  };
}

const LEAK_STATEMENT =
  'discards reveal which blocks are unused, and so the filesystem type and how full it is (exactly, when the drive reads zeros after TRIM), but never data or keys';

/**
 * `allow-discards`: pass TRIM through dm-crypt only when the threat model tolerates what it leaks (cryptsetup(8) --allow-discards, crypttab(5) discard; Milan Broz, "TRIM & dm-crypt ... problems?" (2011); cryptsetup FAQ 5.19) and
 * the drive can use it; VeraCrypt on Linux never passes discards (VeraCrypt src/Core/Unix/Linux/CoreLinux.cpp, veracrypt/VeraCrypt#1186, VeraCrypt documentation "Trim Operation"). Adds `discard-blocked-below` when a
 * layer other than dm-crypt blocks discards in the existing stack.
 */
export function recommendDiscards(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly allowDiscards: boolean } {
  const trimSource = trimSourceOf(facts);
  const deviceSupportsTrim = facts.trim?.deviceSupportsTrim ?? null;
  const stop = discardStopOf(facts);
  const blocking = stop.firstBlockingLayer;
  const reasons: Evidence[] = [
    evidence('options.threatModel', options.threatModel, optionSource('threatModel')),
    evidence('trim.deviceSupportsTrim', deviceSupportsTrim, trimSource),
    evidence('trim.readsZeroesAfterTrim', facts.trim?.readsZeroesAfterTrim ?? null, trimSource),
    evidence(
      'discardPassthrough first blocking layer',
      stop.known ? (blocking === null ? 'none' : `${blocking.kind} ${blocking.name}`) : null,
      trimSource,
    ),
  ];
  const findings: Finding[] = [];
  if (stop.known && blocking !== null && targetOfLayer(blocking.kind) === null) {
    findings.push({
      ruleId: 'discard-blocked-below',
      severity: 'warning',
      message: `Discards stop at ${blocking.kind} "${blocking.name}" in the existing stack, so enabling them in dm-crypt alone will not reach the drive; fix that layer first (lvm.conf issue_discards, lvmthin(7); Linux md raid456 devices_handle_discard_safely; Linux drivers/scsi/sd.c provisioning_mode; sg_vpd(8) Logical Block Provisioning page).`,
      evidence: reasons,
    });
  }
  const decide = (value: boolean, reason: string, confidence: Recommendation['confidence']) => ({
    recommendations: [{ ruleId: 'allow-discards', value, reason, evidence: reasons, confidence }],
    findings,
    allowDiscards: value,
  });
  const own = planSettingsOf(options.targetTool)?.ownDiscards ?? null;
  if (own !== null && own.beforeThreatModel) {
    return decide(own.value, own.reason, 'high');
  }
  if (options.threatModel === 'deniability') {
    return decide(
      false,
      `Hidden-volume deniability does not survive discards: ${LEAK_STATEMENT}, and cryptsetup refuses them for hidden TCRYPT volumes.`,
      'high',
    );
  }
  if (own !== null && !own.beforeThreatModel && (!own.linuxOnly || plansForLinux(facts))) {
    return decide(own.value, own.reason, 'high');
  }
  if (options.threatModel === 'targeted') {
    return decide(
      false,
      `Against an attacker who may image the disk more than once, keep discards off: ${LEAK_STATEMENT}; leave spare area unpartitioned instead.`,
      'high',
    );
  }
  if (rotationalOf(facts) === true || deviceSupportsTrim === false) {
    return decide(
      false,
      'The drive cannot use TRIM, so discards would leak the free-space map for nothing.',
      'high',
    );
  }
  return decide(
    true,
    `Against a one-time thief, allow discards so the SSD keeps its free space as spare area: ${LEAK_STATEMENT}.`,
    deviceSupportsTrim === true ? 'high' : 'medium',
  );
}
