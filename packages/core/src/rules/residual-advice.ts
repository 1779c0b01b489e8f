import type { StandardProfileId } from '../domain/io-benchmark.js';
import { DM_CRYPT_ENGINE, planSettingsOf } from '../targets/registry.js';
import { evidence, type Evidence, type Finding, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatRate } from '../domain/units.js';
import { effectiveCipherSpeed, type EffectiveCipherSpeed } from './cipher-speed.js';
import { plansForLinux, rotationalOf, type PlanFacts } from './facts.js';
import { isKernelAtLeast } from './kernel-version.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import { exceedsBeyondNoise, rangeOfSummary, type MeasuredRange } from './measured-difference.js';
import {
  measuredLuks2Targets,
  measuredRow,
  predictPerformance,
  RESIDUAL_TOLERANCE_PERCENT,
} from './performance-model.js';

/**
 * encplan's own dm-crypt runs use LUKS2's default AES-XTS with a 512-bit key (plan/encrypted-backends.ts
 * luksFormat; cryptsetup meson_options.txt DEFAULT_LUKS2_KEYSIZE), so that is the speed their prediction uses.
 */
const MEASURED_RUN_KEY_BITS = 512;

/** One measured dm-crypt run far below the model: its worst profile and direction. */
interface MeasuredResidual {
  readonly variant: string;
  readonly noWorkqueues: boolean;
  readonly sectorSizeBytes: number;
  readonly profile: StandardProfileId;
  readonly direction: 'read' | 'write';
  readonly measured: number;
  readonly predicted: number;
  readonly plain: number | null;
  /** (predicted − measured) ÷ measured × 100; above {@link RESIDUAL_TOLERANCE_PERCENT}. */
  readonly errorPercent: number;
  /** The plain and the encrypted profile's runs (median, slowest, fastest), for a decision on their difference. */
  readonly plainRange: MeasuredRange | null;
  readonly measuredRange: MeasuredRange | null;
}

/**
 * Each measured dm-crypt run against the model's prediction for the configuration it was measured with
 * (its sector size and workqueue setting, AES-XTS-512): the worst profile per run where the measurement is
 * more than {@link RESIDUAL_TOLERANCE_PERCENT} below the prediction. Empty when nothing was measured, the
 * cipher speed is unknown, or every run agrees with the model.
 */
function residualsBelowModel(facts: PlanFacts): MeasuredResidual[] {
  const speed = effectiveCipherSpeed(facts, 'aes-xts', MEASURED_RUN_KEY_BITS);
  return measuredLuks2Targets(facts).flatMap((run) => {
    const rows = predictPerformance(facts, {
      speed,
      sectorSizeBytes: run.sectorSizeBytes,
      workqueueBypass: run.noWorkqueues,
      engine: DM_CRYPT_ENGINE,
    }).flatMap((row) =>
      (['read', 'write'] as const).map((direction) => ({
        profile: row.profile,
        direction,
        measured: direction === 'read' ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond,
        predicted: direction === 'read' ? row.predictedReadBytesPerSecond : row.predictedWriteBytesPerSecond,
        plain: direction === 'read' ? row.plainReadBytesPerSecond : row.plainWriteBytesPerSecond,
        errorPercent: direction === 'read' ? row.readErrorPercent : row.writeErrorPercent,
      })),
    );
    // The worst row; the profile order breaks ties, so the same facts always name the same row.
    const worst = rows.reduce<MeasuredResidual | null>((best, row) => {
      if (
        row.measured === null ||
        row.predicted === null ||
        row.errorPercent === null ||
        row.errorPercent <= RESIDUAL_TOLERANCE_PERCENT ||
        (best !== null && row.errorPercent <= best.errorPercent)
      ) {
        return best;
      }
      return {
        variant: run.name,
        noWorkqueues: run.noWorkqueues,
        sectorSizeBytes: run.sectorSizeBytes,
        profile: row.profile,
        direction: row.direction,
        measured: row.measured,
        predicted: row.predicted,
        plain: row.plain,
        errorPercent: row.errorPercent,
        plainRange: rangeOfSummary(
          measuredRow(facts.ioBenchmark?.plain, row.profile, row.direction)?.summary,
        ),
        measuredRange: rangeOfSummary(measuredRow(run.target, row.profile, row.direction)?.summary),
      };
    }, null);
    return worst === null ? [] : [worst];
  });
}

/** The evidence every moved decision carries: measured, predicted, the residual and the rule that moved it. */
function residualEvidence(residual: MeasuredResidual, movedRule: string): Evidence[] {
  const where = `${residual.variant}, ${residual.profile} ${residual.direction}`;
  return [
    evidence('measured encrypted throughput (bytes/s)', residual.measured, sourceOf('fio', where)),
    evidence(
      'predicted encrypted throughput (bytes/s)',
      Math.round(residual.predicted),
      sourceOf('encplan', 'performance model'),
    ),
    evidence('residual (%)', residual.errorPercent, sourceOf('encplan', 'performance-residual')),
    evidence('moved by', `performance-residual → ${movedRule}`, sourceOf('encplan', 'rule residual-advice')),
  ];
}

function describe(residual: MeasuredResidual): string {
  return `The dm-crypt run "${residual.variant}" measured ${formatRate(residual.measured)} in ${residual.profile} ${residual.direction} against a predicted ${formatRate(residual.predicted)} (+${residual.errorPercent.toFixed(0)} %)`;
}

/** The settings the residuals may move, as the rules before decided them. */
export interface AdviceSettings {
  readonly workqueueBypass: boolean;
  readonly sectorSizeBytes: number | null;
  readonly cipherSpec: string;
  readonly keyBits: number;
  readonly speed: EffectiveCipherSpeed | null;
}

/** The settings after the residuals, with the decisions and findings they replace (by rule id). */
export interface MovedAdvice {
  readonly settings: AdviceSettings;
  readonly recommendations: readonly Recommendation[];
  readonly findings: readonly Finding[];
}

/**
 * `residual-advice`: a measurement that contradicts the model moves the advice, where the evidence points to a
 * setting (issue 11: "measured beats predicted"). Each moved decision names the measured and predicted figure,
 * the residual and this rule; with no measurement, or one within {@link RESIDUAL_TOLERANCE_PERCENT}, nothing
 * moves.
 * - Stock workqueues far below the model on a kernel ≥ 5.9 and a device not known to spin, with no run of the
 *   bypass to compare → `workqueue-bypass` true: dm-crypt's kcryptd queueing, not the device or the cipher, is
 *   what the model leaves out (Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; Linux
 *   Documentation/admin-guide/device-mapper/dm-crypt.rst no_read_workqueue/no_write_workqueue; cryptsetup(8)
 *   --perf-no_read_workqueue, --perf-no_write_workqueue).
 * - A 512-byte-sector run far below the model → `sector-size` 4096 where the device allows it (logical sector
 *   ≤ 4096; kernel AES-XTS runs +117 … +155 % faster on 4096-byte messages: Eric Biggers, "x86: AES-XTS with
 *   VAES/AVX10" cover letter, linux-crypto 2024).
 * - A run with the workqueues bypassed (so the queueing is ruled out) still far below the model and below the
 *   plain device with the 512-bit key → `cipher-key-size` 256 (AES-128), only under --speed-over-security.
 * - Any run far below the model while /proc/crypto shows a generic xts(aes) on an AES-capable CPU → the
 *   `kernel-aes-driver-unaccelerated` finding becomes critical: fix it before anything else.
 */
export function moveAdviceByResiduals(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  current: AdviceSettings,
  driverFindings: readonly Finding[],
): MovedAdvice {
  if (planSettingsOf(options.targetTool)?.dmCryptParameters !== true || !plansForLinux(facts)) {
    return { settings: current, recommendations: [], findings: [] };
  }
  const residuals = residualsBelowModel(facts);
  if (residuals.length === 0) {
    return { settings: current, recommendations: [], findings: [] };
  }
  const recommendations: Recommendation[] = [];
  const findings: Finding[] = [];
  let settings = current;
  const worstOf = (candidates: readonly MeasuredResidual[]) =>
    candidates.reduce<MeasuredResidual | null>(
      (best, row) => (best === null || row.errorPercent > best.errorPercent ? row : best),
      null,
    );

  const kernel = facts.machine?.os?.kernel ?? null;
  const bypassMeasured = measuredLuks2Targets(facts).some((run) => run.noWorkqueues);
  const stock = worstOf(residuals.filter((row) => !row.noWorkqueues));
  if (
    stock !== null &&
    !current.workqueueBypass &&
    !bypassMeasured &&
    isKernelAtLeast(kernel, 5, 9) === true &&
    rotationalOf(facts) !== true
  ) {
    settings = { ...settings, workqueueBypass: true };
    recommendations.push({
      ruleId: 'workqueue-bypass',
      value: true,
      reason: `${describe(stock)}: far below what the device and the cipher allow, the sign of dm-crypt's own queueing (Cloudflare measured 80.6 MiB/s against 508 MiB/s raw through stock workqueues). Bypass them (--perf-no_read_workqueue --perf-no_write_workqueue, Linux ≥ 5.9, stored with --persistent) and measure both variants to confirm. Moved by the measurement (rule residual-advice).`,
      evidence: [
        evidence('machine.os.kernel', kernel, sourceOf('uname', 'release')),
        evidence('media.kind', facts.media?.kind ?? null, sourceOf('/sys/block/*/queue/rotational')),
        ...residualEvidence(stock, 'workqueue-bypass'),
      ],
      confidence: 'medium',
    });
  }

  const logical = facts.disk?.logicalSectorBytes ?? null;
  const smallSector = worstOf(residuals.filter((row) => row.sectorSizeBytes < 4096));
  if (smallSector !== null && (logical === null || logical <= 4096)) {
    // The rule before already chose 4096 when the device allows; the measurement confirms it.
    const moved = current.sectorSizeBytes !== 4096;
    settings = { ...settings, sectorSizeBytes: 4096 };
    recommendations.push({
      ruleId: 'sector-size',
      value: 4096,
      reason: `${describe(smallSector)}. 4096-byte encryption sectors need one cipher call per 4 KiB instead of eight (kernel AES-XTS runs about twice as fast), and the device's ${logical === null ? 'unknown' : `${String(logical)}-byte`} logical sector allows them${moved ? '. Moved by the measurement (rule residual-advice).' : '; the measurement confirms this choice (rule residual-advice).'}`,
      evidence: [
        evidence('disk.logicalSectorBytes', logical, sourceOf('lsblk', 'log-sec')),
        ...residualEvidence(smallSector, 'sector-size'),
      ],
      confidence: logical === null ? 'medium' : 'high',
    });
  }

  // The encrypted run counts as cipher-bound only when the plain device beats it beyond the spread of both
  // profiles' runs; where either ran once, by more than the fixed single-run dead band (issue 24 item 4).
  const cipherBound = worstOf(
    residuals.filter(
      (row) =>
        row.noWorkqueues &&
        row.plainRange !== null &&
        row.measuredRange !== null &&
        exceedsBeyondNoise(row.plainRange, row.measuredRange).exceeds,
    ),
  );
  if (
    cipherBound !== null &&
    options.speedOverSecurity &&
    current.cipherSpec === 'aes-xts-plain64' &&
    current.keyBits === MEASURED_RUN_KEY_BITS
  ) {
    const aes256 = effectiveCipherSpeed(facts, 'aes-xts', 256);
    settings = { ...settings, keyBits: 256, speed: aes256 ?? settings.speed };
    recommendations.push({
      ruleId: 'cipher-key-size',
      value: 256,
      reason: `${describe(cipherBound)}, with the workqueues bypassed and below the plain device's ${formatRate(cipherBound.plain ?? 0)}: the 512-bit XTS key's cipher is what limits it. You asked for speed, so a 256-bit XTS key (AES-128, about 20 % faster in the cipher) is the better trade. Moved by the measurement (rule residual-advice).`,
      evidence: [
        evidence(
          'options.speedOverSecurity',
          options.speedOverSecurity,
          sourceOf('encplan', 'options.speedOverSecurity'),
        ),
        evidence('plain throughput (bytes/s)', cipherBound.plain, sourceOf('fio', cipherBound.profile)),
        ...residualEvidence(cipherBound, 'cipher-key-size'),
      ],
      confidence: 'medium',
    });
  }

  const worst = worstOf(residuals);
  for (const finding of driverFindings) {
    if (finding.ruleId === 'kernel-aes-driver-unaccelerated' && worst !== null) {
      findings.push({
        ...finding,
        severity: 'critical',
        message: `${finding.message} Fix this first: ${describe(worst)}, and the unaccelerated driver is the likely cause (rule residual-advice).`,
        evidence: [...finding.evidence, ...residualEvidence(worst, 'kernel-aes-driver-unaccelerated')],
      });
    }
  }
  return { settings, recommendations, findings };
}
