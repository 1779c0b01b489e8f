import { machineFactOrigin } from '../domain/cpu.js';
import { planSettingsOf } from '../targets/registry.js';
import { evidence, type Evidence, type Finding, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatRate, MIB } from '../domain/units.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import {
  AES_XTS_512_OVER_256,
  AES_XTS_512_OVER_256_VAES,
  effectiveCipherSpeed,
  fastestPlainBytesPerSecond,
  keySizeGainSpread,
  slowerEffective,
  slowerOnCores,
  type EffectiveCipherSpeed,
} from './cipher-speed.js';
import { plansForLinux, type PlanFacts } from './facts.js';
import type { RuleResult } from './rule-result.js';
import type { CipherEvidenceKind, KeySizeGainSpread } from './cipher-speed.js';
import {
  differenceBeyondSpread,
  exactly,
  exceedsBeyondNoise,
  leadsBeyondSpread,
  rangeOfRuns,
  rangeOfSummary,
  scaleRange,
  type MeasuredRange,
  type NoiseBasis,
} from './measured-difference.js';

/** The dm-crypt cipher specs the plan can emit (cryptsetup -c). */
export type LuksCipherSpec = 'aes-xts-plain64' | 'xchacha12,aes-adiantum-plain64';

/** The chosen cipher, for the rules and commands that follow. */
export interface CipherChoice {
  readonly spec: LuksCipherSpec;
  readonly keyBits: number;
  /** The speed the performance model uses; null when neither measured nor derivable. */
  readonly speed: EffectiveCipherSpeed | null;
}

/**
 * Android lets devices whose AES runs below 50 MiB/s use Adiantum instead (Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648,
 * source.android.com "Enabling Adiantum"): the bar for "this CPU is too slow for AES" without a measurement
 * of Adiantum itself.
 */
const ANDROID_ADIANTUM_AES_BAR_BYTES_PER_SECOND = 50 * MIB;

/** AES-128's gain over AES-256 is stated in 5 % steps (plan stability). */
const COST_STEP_PERCENT = 5;
/** aes-cbc must beat AES-XTS-512 by half again before the plan mentions it (well beyond benchmark noise). */
const CBC_FASTER_FACTOR = 1.5;

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

const cpuSource = (facts: PlanFacts) => sourceOf(machineFactOrigin(facts.machine, '/proc/cpuinfo'), 'flags');
const coresSource = (facts: PlanFacts) =>
  sourceOf(machineFactOrigin(facts.machine, '/proc/cpuinfo'), 'processor');
const kernelSource = sourceOf('/proc/crypto', 'driver');

function speedEvidence(label: string, speed: EffectiveCipherSpeed | null): Evidence[] {
  if (speed === null) {
    return [];
  }
  const note = speed.measured ? '' : ` (derived from ${speed.basis.cipher} ${String(speed.basis.keyBits)}b)`;
  return [
    evidence(`${label} encrypt, one core${note} (bytes/s)`, speed.encryptBytesPerSecond, speed.basis.source),
    evidence(`${label} decrypt, one core${note} (bytes/s)`, speed.decryptBytesPerSecond, speed.basis.source),
  ];
}

/**
 * Whether the kernel offers Adiantum: yes when /proc/crypto lists it or the module lists hold it, no when the
 * module lists were read without it, unknown otherwise (/proc/crypto's silence proves nothing).
 */
function adiantumAvailableOf(facts: PlanFacts): boolean | null {
  const adiantum = facts.kernelCrypto?.adiantum;
  return adiantum === undefined || adiantum === 'unknown' ? null : adiantum !== 'absent';
}

/** `kernel-aes-driver-unaccelerated`: an AES-capable CPU behind a generic kernel driver is the first fix. */
export function checkKernelAesDriver(facts: PlanFacts): RuleResult {
  const driver = facts.kernelCrypto?.xtsAes?.driver ?? null;
  if (
    !plansForLinux(facts) ||
    facts.machine?.cryptoFlags?.aes !== true ||
    facts.kernelCrypto?.xtsAesImplementation !== 'generic'
  ) {
    return { recommendations: [], findings: [] };
  }
  const finding: Finding = {
    ruleId: 'kernel-aes-driver-unaccelerated',
    severity: 'warning',
    message:
      `The CPU has AES instructions but the kernel's xts(aes) driver is ${driver ?? 'a generic one'}, ` +
      'so dm-crypt would not use them; load the accelerated module (aesni_intel on x86, aes_ce_blk on ARM64) before encrypting.',
    evidence: [
      evidence('machine.cryptoFlags.aes', true, cpuSource(facts)),
      evidence('kernelCrypto.xtsAes.driver', driver, kernelSource),
    ],
  };
  return { recommendations: [], findings: [finding] };
}

/**
 * `cipher-mode`: AES-XTS where the CPU accelerates AES; Adiantum where the CPU lacks AES instructions, the
 * kernel has Adiantum and it measures faster (Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648; Raspberry Pi benchmarks: kubesail/pibox-os#17, gitbls/sdm#199, Start9Labs/start-os#2336: Pi 4 Adiantum > AES, Pi 5 AES 4× faster).
 */
export function recommendCipherMode(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly choice: CipherChoice } {
  const aes512 = effectiveCipherSpeed(facts, 'aes-xts', 512);
  const adiantum = effectiveCipherSpeed(facts, 'xchacha12,aes-adiantum', 256);
  const aesRate = slowerEffective(aes512);
  const adiantumRate = slowerEffective(adiantum);
  const hasAes = facts.machine?.cryptoFlags?.aes ?? null;
  const adiantumAvailable = adiantumAvailableOf(facts);
  const reasons: Evidence[] = [
    evidence('machine.cryptoFlags.aes', hasAes, cpuSource(facts)),
    evidence('kernelCrypto.adiantum', facts.kernelCrypto?.adiantum ?? null, kernelSource),
    ...speedEvidence('aes-xts 512b', aes512),
    ...speedEvidence('xchacha12,aes-adiantum 256b', adiantum),
  ];

  const fixed = planSettingsOf(options.targetTool)?.fixedCipher ?? null;
  if (fixed !== null) {
    const choice: CipherChoice = {
      spec: fixed.spec,
      keyBits: fixed.keyBits,
      speed: effectiveCipherSpeed(facts, 'aes-xts', fixed.keyBits),
    };
    const recommendation: Recommendation = {
      ruleId: 'cipher-mode',
      value: 'aes-xts',
      reason: fixed.reason,
      evidence: [evidence('targetTool', options.targetTool, sourceOf('encplan', 'options.targetTool'))],
      confidence: 'high',
    };
    return { recommendations: [recommendation], findings: [], choice };
  }

  // A measured Adiantum proves the kernel has it: cryptsetup benchmark uses the kernel's implementation (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c).
  const kernelHasAdiantum = adiantumAvailable === true || adiantum !== null;
  const lacksAes =
    hasAes === false ||
    (hasAes === null && aesRate !== null && aesRate < ANDROID_ADIANTUM_AES_BAR_BYTES_PER_SECOND);
  // Adiantum replaces AES-XTS only with a lead beyond the spread of their repeated runs (issue 24 item 4).
  const adiantumFaster =
    adiantumRate !== null &&
    (aesRate === null ||
      leadsBeyondSpread(
        recordedRange(facts, 'xchacha12,aes-adiantum', 256, adiantumRate),
        recordedRange(facts, 'aes-xts', 512, aesRate),
        'compare-figures',
      ));
  const aesTooSlowUnmeasuredAdiantum =
    adiantumRate === null &&
    adiantumAvailable === true &&
    aesRate !== null &&
    aesRate < ANDROID_ADIANTUM_AES_BAR_BYTES_PER_SECOND;

  const device = fastestPlainBytesPerSecond(facts);
  if (lacksAes && kernelHasAdiantum && (adiantumFaster || aesTooSlowUnmeasuredAdiantum)) {
    const measured = adiantumRate !== null && aesRate !== null;
    // Which factor decides: speed when AES-XTS would hold back the device (or the device is unmeasured); when
    // the device is slower than both, speed is moot and the timing side channel of table-based software AES
    // (Bernstein, "Cache-timing attacks on AES", 2005; the motivation of Crowley & Biggers, IACR ToSC 2018)
    // decides, at lower confidence because a portable volume may meet machines without Adiantum.
    const deviceSlowerThanAes = device !== null && aesRate !== null && device <= aesRate;
    const speedText = measured
      ? `Adiantum measures ${formatRate(adiantumRate)} against AES-XTS-512's ${formatRate(aesRate)} (${(adiantumRate / aesRate).toFixed(1)}×)`
      : "AES-XTS runs below Android's 50 MiB/s bar for Adiantum (Adiantum is more than 5× faster than AES-XTS on such CPUs)";
    const reason = deviceSlowerThanAes
      ? `This CPU has no AES instructions; the device (${formatRate(device)}) is slower than either cipher, so speed does not decide here: the timing side channel of table-based software AES does, and Adiantum (XChaCha12 + AES on one block per sector) avoids it. ${speedText}. Portability: every machine that opens the volume needs Linux ≥ 5.0 and cryptsetup ≥ 2.0.6 (no VeraCrypt, BitLocker or macOS).`
      : `This CPU has no AES instructions and ${speedText}, so Adiantum (XChaCha12 + AES on one block per sector) is the faster mode at equal security${device === null ? '' : ` and AES-XTS would hold back the device (${formatRate(device)})`}. Portability: every machine that opens the volume needs Linux ≥ 5.0 and cryptsetup ≥ 2.0.6.`;
    return {
      recommendations: [
        {
          ruleId: 'cipher-mode',
          value: 'xchacha12,aes-adiantum-plain64',
          reason,
          evidence: [
            ...reasons,
            evidence('fastest plain device throughput (bytes/s)', device, sourceOf('fio', 'bw_bytes')),
          ],
          confidence: measured && !deviceSlowerThanAes ? 'high' : 'medium',
        },
      ],
      findings: [],
      choice: { spec: 'xchacha12,aes-adiantum-plain64', keyBits: 256, speed: adiantum },
    };
  }
  // A CPU without AES instructions on a kernel without Adiantum: say so instead of a silent AES-XTS.
  const adiantumMissing: Finding[] =
    lacksAes && adiantumAvailable === false && adiantum === null
      ? [
          {
            ruleId: 'adiantum-missing',
            severity: 'warning',
            message:
              'This CPU has no AES instructions and this kernel does not offer Adiantum, so the plan falls back to AES-XTS in software: slower, and table-based AES is exposed to cache-timing attacks. Adiantum needs Linux ≥ 5.0 built with CONFIG_CRYPTO_ADIANTUM (with CONFIG_CRYPTO_CHACHA20 and CONFIG_CRYPTO_NHPOLY1305): try `modprobe adiantum`, else install a distribution kernel that enables it (Raspberry Pi kernels lacked it until raspberrypi/linux#3648) and assess again.',
            evidence: reasons,
          },
        ]
      : [];
  // A crypto engine that accelerates CBC but not XTS shows up as an aes-cbc row well above aes-xts.
  const cbc = slowerEffective(effectiveCipherSpeed(facts, 'aes-cbc', 256));
  const cbcFaster: Finding[] =
    cbc !== null && aesRate !== null && cbc > aesRate * CBC_FASTER_FACTOR
      ? [
          {
            ruleId: 'aes-cbc-faster',
            severity: 'info',
            message: `aes-cbc measures ${formatRate(cbc)} against AES-XTS-512's ${formatRate(aesRate)} here (a crypto engine that accelerates CBC only). The plan keeps AES-XTS: CBC with ESSIV is malleable block by block and cryptsetup replaced it as the default with aes-xts-plain64 in 1.6.0; only if throughput matters more, format with -c aes-cbc-essiv:sha256 -s 256.`,
            evidence: [
              evidence(
                'aes-cbc 256b slower direction, one core (bytes/s)',
                cbc,
                sourceOf('cryptsetup benchmark', 'aes-cbc'),
              ),
            ],
          },
        ]
      : [];
  const accelerated = hasAes === true;
  // Only what was measured is said (issue 24): "fastest" only among the modes measured here.
  const acceleratedReason =
    aesRate === null
      ? 'The CPU has AES instructions, so AES-XTS runs on them and is the most widely supported mode (neither AES-XTS nor Adiantum was measured here).'
      : adiantumRate === null
        ? `The CPU has AES instructions (AES-XTS-512 ${aes512?.measured === true ? 'measures' : 'is estimated at'} ${formatRate(aesRate)} on one core), so AES-XTS runs on them and is the most widely supported mode; Adiantum was not measured, so whether it would be faster here is unknown.`
        : aesRate >= adiantumRate
          ? `The CPU has AES instructions and AES-XTS-512 ${aes512?.measured === true ? 'measures' : 'is estimated at'} ${formatRate(aesRate)} on one core against Adiantum's ${formatRate(adiantumRate)}: the fastest of the modes measured, and the most widely supported.`
          : `The CPU has AES instructions; Adiantum measured ${formatRate(adiantumRate)} against AES-XTS-512's ${formatRate(aesRate)} on one core, yet AES-XTS stays: on AES instructions it runs in constant time and every LUKS2 implementation supports it, while Adiantum needs Linux ≥ 5.0 and cryptsetup ≥ 2.0.6 wherever the volume is opened.`;
  const reason = accelerated
    ? acceleratedReason
    : adiantumRate !== null && aesRate !== null
      ? `AES-XTS measures faster than Adiantum here (${formatRate(aesRate)} against ${formatRate(adiantumRate)}), so AES-XTS stays the choice.`
      : adiantumAvailable === false
        ? 'AES-XTS is the cryptsetup default and this kernel does not offer Adiantum.'
        : 'AES-XTS is the cryptsetup default; measure Adiantum (cryptsetup benchmark -c xchacha12,aes-adiantum-plain64 -s 256) to see whether it is faster on this CPU.';
  const confidence = accelerated || (adiantumRate !== null && aesRate !== null) ? 'high' : 'medium';
  return {
    recommendations: [
      { ruleId: 'cipher-mode', value: 'aes-xts-plain64', reason, evidence: reasons, confidence },
    ],
    findings: [...adiantumMissing, ...cbcFaster],
    choice: { spec: 'aes-xts-plain64', keyBits: 512, speed: aes512 },
  };
}

/** What a measured AES-128 gain rests on, by the evidence of its figures (rules/cipher-speed.ts ranks). */
const MEASURED_BY: Readonly<Record<CipherEvidenceKind, string>> = {
  'measured-run': 'encrypted runs of both key sizes',
  'kernel-api': "the kernel's crypto API, cryptsetup benchmark of both key sizes",
  'kernel-cipher': "the kernel's own cipher",
  'userspace-upper-bound': 'OpenSSL in user space, one run each',
};

/**
 * AES-128's gain as the plan states it. With interleaved pairs (OpenSSL, `spread`) the statement moves off the
 * published figure only when the pairs' whole spread lies away from it: inside the spread it states the
 * published figure, a spread reaching zero is no measurable gain, else the median in 5 % steps; each with the
 * spread it rests on (issue 24 item 4). Without pairs: the single measured ratio in 5 % steps, or the published
 * figure.
 */
function statedGain(
  measured: number | null,
  published: number,
  spread: KeySizeGainSpread | null,
  measuredBy: string,
): { percent: number; faster: string } {
  // Which evidence the figure rests on is said (issue 24 item 1): the measurement of both key sizes, or the
  // published pairs where this machine measured them not both through the path the volume will use.
  if (measured === null) {
    return {
      percent: published,
      faster: `about ${String(published)} % faster (the published figure from cryptsetup benchmark pairs; not measured here)`,
    };
  }
  if (spread === null) {
    return { percent: measured, faster: `about ${String(measured)} % faster (measured here: ${measuredBy})` };
  }
  const range = `${String(spread.lowPercent)} to ${String(spread.highPercent)} % over ${String(spread.pairs)} interleaved runs`;
  const gains: MeasuredRange = {
    value: spread.medianPercent,
    low: spread.lowPercent,
    high: spread.highPercent,
    spreadKnown: spread.pairs > 1,
  };
  if (differenceBeyondSpread(gains, exactly(published)) === 'within') {
    return {
      percent: published,
      faster: `about ${String(published)} % faster (the published figure; ${range} here)`,
    };
  }
  if (differenceBeyondSpread(gains, exactly(0)) !== 'above') {
    return { percent: 0, faster: `not measurably faster (${range} here, a spread that reaches zero)` };
  }
  const median = roundTo(spread.medianPercent, COST_STEP_PERCENT);
  return { percent: median, faster: `about ${String(median)} % faster (median; ${range} here)` };
}

/**
 * `cipher-key-size`: 512-bit XTS keys (AES-256, the LUKS2 default, cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc) unless the user prefers speed and
 * the cipher, not the device, limits throughput; the cost is quantified from the measurement (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615).
 */
export function recommendKeySize(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  choice: CipherChoice,
): RuleResult & { readonly choice: CipherChoice } {
  if (
    choice.spec !== 'aes-xts-plain64' ||
    (planSettingsOf(options.targetTool)?.fixedCipher ?? null) !== null
  ) {
    return { recommendations: [], findings: [], choice };
  }
  const aes256 = effectiveCipherSpeed(facts, 'aes-xts', 256);
  const aes512 = effectiveCipherSpeed(facts, 'aes-xts', 512);
  const rate256 = slowerEffective(aes256);
  const rate512 = slowerEffective(aes512);
  // Unknown core count: the queued regime is unknown, never "all 1 cores".
  const cores = facts.machine?.logicalCores ?? null;
  const device = fastestPlainBytesPerSecond(facts);
  // AES-128's gain is stated as a gain: 256-bit-key speed over 512-bit-key speed, minus one (a measured 1.69×
  // is 70 % faster, not AES-256's 40 % cost). Quantised to 5 % steps so benchmark noise does not change the
  // wording of the same machine's plan (issue 11: "−4 % / 27 / 18 / 42 / 19 %" over five idle runs).
  const measuredGain =
    rate256 !== null && rate512 !== null && aes256?.measured === true && aes512?.measured === true
      ? roundTo(Math.max(0, (rate256 / rate512 - 1) * 100), COST_STEP_PERCENT)
      : null;
  // Unmeasured pair: AES-XTS-512 runs at ≈ 0.8× AES-XTS-256 (cryptsetup benchmark pairs −19 … −23 %, see
  // cipher-speed.ts), so AES-128 is ≈ 25 % faster; ≈ 10 % with VAES, where the cipher runs on it (user space,
  // or a kernel driver on the CPU's AES instructions; a generic kernel driver never uses VAES).
  const vaesInUse =
    facts.machine?.cryptoFlags?.vaes === true &&
    (!plansForLinux(facts) || facts.kernelCrypto?.xtsAesImplementation === 'cpu-instructions');
  const publishedGain = roundTo(
    (1 / (vaesInUse ? AES_XTS_512_OVER_256_VAES : AES_XTS_512_OVER_256) - 1) * 100,
    COST_STEP_PERCENT,
  );
  const gain = statedGain(
    measuredGain,
    publishedGain,
    aes256?.basis.evidence === 'userspace-upper-bound' && aes512?.basis.evidence === 'userspace-upper-bound'
      ? keySizeGainSpread(facts)
      : null,
    aes256 === null ? '' : MEASURED_BY[aes256.basis.evidence],
  );
  // Two regimes (performance-model.ts cipherRegimeOf): one sequential stream waits on one stream's cipher;
  // queued I/O spreads over the cores. The rate on all cores comes only from cipherRateOnCores: a figure that
  // already spans the cores of its run (the kernel's cipher read back through fscrypt) is never multiplied
  // again (issue 24). A device faster than one stream's cipher is cipher-bound for single streams.
  const queuedRate = cores === null ? null : slowerOnCores(aes512, cores);
  const deviceRange = fastestPlainRange(facts);
  const cipherRange = rate512 === null || aes512 === null ? null : cipherRangeOf(facts, aes512, rate512);
  // The device outruns the cipher only beyond the spread of both figures' runs; with single runs, beyond the
  // fixed dead band (measured-difference.ts SINGLE_RUN_DEAD_BAND), said in the reason (issue 24 item 4).
  const single =
    deviceRange === null || cipherRange === null ? null : exceedsBeyondNoise(deviceRange, cipherRange);
  const queued =
    deviceRange === null || cipherRange === null || queuedRate === null || rate512 === null
      ? null
      : exceedsBeyondNoise(deviceRange, scaleRange(cipherRange, queuedRate / rate512));
  const singleStreamBound = single?.exceeds === true;
  const queuedBound = queued?.exceeds === true;
  const cipherBound = singleStreamBound || queuedBound;
  const spansRun = aes512?.figureCores === 'cores-of-the-run';
  const queuedText =
    cores === null || queuedRate === null
      ? 'unknown, the number of cores is unknown'
      : spansRun
        ? `${queuedBound ? 'it outruns' : 'it does not outrun'} the same ${formatRate(queuedRate)}, a figure that already spans the cores its run used`
        : `${queuedBound ? 'it outruns' : 'it does not outrun'} all ${String(cores)} cores (${formatRate(queuedRate)})`;
  const regimeText =
    device === null || rate512 === null
      ? ''
      : ` Single stream: the device (${formatRate(device)}) ${singleStreamBound ? 'outruns' : 'does not outrun'} ${spansRun ? "the kernel cipher's" : "one core's"} AES-XTS-512 (${formatRate(rate512)}); queued I/O: ${queuedText}.${noiseText(single?.basis ?? null)}`;
  const reasons: Evidence[] = [
    ...speedEvidence('aes-xts 256b', aes256),
    ...speedEvidence('aes-xts 512b', aes512),
    evidence('fastest plain device throughput (bytes/s)', device, sourceOf('fio', 'bw_bytes')),
    evidence('machine.logicalCores', facts.machine?.logicalCores ?? null, coresSource(facts)),
    evidence(
      'options.speedOverSecurity',
      options.speedOverSecurity,
      sourceOf('encplan', 'options.speedOverSecurity'),
    ),
  ];
  // A gain within its spread of zero moves nothing: the key stays 512-bit (issue 24 item 4).
  if (options.speedOverSecurity && cipherBound && gain.percent > 0) {
    return {
      recommendations: [
        {
          ruleId: 'cipher-key-size',
          value: 256,
          reason: `You asked for speed and the cipher limits this device${queuedBound ? ' even on all cores' : ' for single-stream reads and writes'}, so a 256-bit XTS key (AES-128) is ${gain.faster}.${regimeText}`,
          evidence: reasons,
          confidence: rate256 !== null && aes256?.measured === true ? 'high' : 'medium',
        },
      ],
      findings: [],
      choice: { ...choice, keyBits: 256, speed: aes256 ?? choice.speed },
    };
  }
  const why = cipherBound
    ? `the cipher limits this device${queuedBound ? '' : ' for single-stream work'}, so AES-128 would be ${gain.faster}, but the 512-bit key is the LUKS2 default and the safer choice unless you pass --speed-over-security`
    : rate512 === null
      ? // No speed this encryption would get (a generic kernel driver refuses OpenSSL): the limit is unknown,
        // never "not the cipher" (issue 24: said on a kernel whose generic AES ran at 32–52 MiB/s).
        `AES-128 would be ${gain.percent === 0 ? '' : 'only '}${gain.faster} in the cipher; whether the cipher limits this device is unknown (no speed this encryption would get was measured)`
      : `AES-128 would be ${gain.percent === 0 ? '' : 'only '}${gain.faster} in the cipher, and the cipher is not what limits this device${device === null ? ' (device speed unmeasured)' : ''}`;
  return {
    recommendations: [
      {
        ruleId: 'cipher-key-size',
        value: 512,
        reason: `Use a 512-bit XTS key (AES-256): ${why}.${regimeText}`,
        evidence: reasons,
        confidence: device === null || rate512 === null ? 'medium' : 'high',
      },
    ],
    findings: [],
    choice,
  };
}

/**
 * The range a cipher's rate spans over its recorded repeated runs (`encryptSamplesBytesPerSecond`, one core):
 * the rate scaled by the slowest and fastest run over the figure. One run records no spread: [rate, rate], spread
 * unknown.
 */
function recordedRange(facts: PlanFacts, cipher: string, keyBits: number, rate: number): MeasuredRange {
  const rows = (facts.cipherBenchmark?.cipherSpeed?.measurements ?? []).filter(
    (candidate) => candidate.cipher === cipher,
  );
  // A speed derived from another key size of the same cipher (effectiveCipherSpeed) spreads as the row it was
  // derived from.
  const row =
    rows.find((candidate) => candidate.keyBits === keyBits) ??
    rows.find((candidate) => (candidate.encryptSamplesBytesPerSecond ?? []).length >= 2);
  const samples = (row?.encryptSamplesBytesPerSecond ?? []).filter(
    (value): value is number => typeof value === 'number' && value > 0,
  );
  const figure = row?.encryptBytesPerSecond ?? null;
  const runs = rangeOfRuns(samples);
  if (runs === null || !runs.spreadKnown || figure === null || figure === undefined || figure <= 0) {
    return { ...exactly(rate), spreadKnown: false };
  }
  return { ...scaleRange(runs, rate / figure), value: rate };
}

/**
 * The range of the AES-XTS figure a rule compares with the device: the spread of its recorded repeated runs
 * (cryptsetup or OpenSSL samples); a figure measured through the kernel's cipher by a fio run (fscrypt) has no
 * recorded cipher runs, so its spread is unknown.
 */
function cipherRangeOf(facts: PlanFacts, speed: EffectiveCipherSpeed, rate: number): MeasuredRange {
  return speed.figureCores === 'cores-of-the-run'
    ? { ...exactly(rate), spreadKnown: false }
    : recordedRange(facts, speed.cipher, speed.keyBits, rate);
}

/** How a bound was decided, for the reason (issue 24 item 4: a fixed band only where one run is all there is). */
function noiseText(basis: NoiseBasis | null): string {
  return basis === null
    ? ''
    : basis === 'spread'
      ? ' Decided beyond the spread of the repeated runs.'
      : ' One run each, so the device must lead by more than 10 % (the tolerance cryptsetup gives its own benchmark) before the cipher counts as the limit.';
}

/**
 * The device's fastest throughput on the plain I/O benchmark as a range: the highest median, and the highest
 * slowest and fastest run over its profiles; spread unknown when a profile ran once.
 */
function fastestPlainRange(facts: PlanFacts): MeasuredRange | null {
  const ranges = (facts.ioBenchmark?.plain?.profiles ?? []).flatMap((profile): MeasuredRange[] => {
    const range = rangeOfSummary(profile.summary);
    return range === null ? [] : [range];
  });
  // The device's fastest throughput lies between the highest slowest run and the highest fastest run of any
  // profile: taking one profile's range by its median would switch profiles (and ranges) when a median moves
  // within its runs, and flip a decision that rests on the runs' spread (issue 24 item 4).
  return ranges.reduce<MeasuredRange | null>(
    (best, range) =>
      best === null
        ? range
        : {
            value: Math.max(best.value, range.value),
            low: Math.max(best.low, range.low),
            high: Math.max(best.high, range.high),
            spreadKnown: best.spreadKnown && range.spreadKnown,
          },
    null,
  );
}

/** VeraCrypt's encryption algorithm names (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c). */
export type VeracryptEncryption = 'AES' | 'Serpent' | 'Twofish' | 'AES-Twofish-Serpent';

/**
 * `veracrypt-encryption`: AES alone unless the measured cascade, spread over all cores as VeraCrypt does
 * (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c Parallelization), still outruns the device; a cascade costs ≈ 90 % per core (VeraCrypt documentation "Cascades", "Parallelization").
 */
export function recommendVeracryptEncryption(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly encryption: VeracryptEncryption; readonly speed: EffectiveCipherSpeed | null } {
  const cores = facts.machine?.logicalCores ?? 1;
  const singles = (['AES', 'Serpent', 'Twofish'] as const).map((name) => {
    const cipher = name === 'AES' ? 'aes-xts' : name === 'Serpent' ? 'serpent-xts' : 'twofish-xts';
    const speed = effectiveCipherSpeed(facts, cipher, 512);
    const rate = slowerEffective(speed);
    // VeraCrypt spreads every request over all cores; a figure that already spans its run's cores stays as it is.
    const onCores = slowerOnCores(speed, cores);
    const range =
      rate === null || speed === null || onCores === null
        ? null
        : scaleRange(cipherRangeOf(facts, speed, rate), onCores / rate);
    return { name, speed, rate, onCores, range };
  });
  const [aes, serpent, twofish] = singles;
  const device = fastestPlainBytesPerSecond(facts);
  const reasons: Evidence[] = [
    ...singles.flatMap((single) => speedEvidence(`${single.name} XTS 512b`, single.speed)),
    evidence('machine.logicalCores', facts.machine?.logicalCores ?? null, coresSource(facts)),
    evidence('fastest plain device throughput (bytes/s)', device, sourceOf('fio', 'bw_bytes')),
  ];
  // Cascade throughput ≈ harmonic combination of its layers (VeraCrypt documentation "Cascades", "Parallelization").
  const layerRates = [aes?.onCores ?? null, twofish?.onCores ?? null, serpent?.onCores ?? null].filter(
    (rate): rate is number => rate !== null,
  );
  // The cascade over all cores (each layer's rate on all cores, cipherRateOnCores).
  const cascadeRate =
    layerRates.length === 3 ? 1 / layerRates.reduce((sum, rate) => sum + 1 / rate, 0) : null;
  // The cascade costs nothing only when its slowest recorded runs still outrun the device's fastest run: a
  // difference inside the runs' spread decides nothing (issue 24 item 4), so the plan keeps one cipher.
  const layers = [aes, twofish, serpent]
    .map((single) => single?.range ?? null)
    .filter((range): range is MeasuredRange => range !== null);
  const harmonic = (rates: readonly number[]) => 1 / rates.reduce((sum, rate) => sum + 1 / rate, 0);
  const cascadeRange: MeasuredRange | null =
    layers.length === 3
      ? {
          value: harmonic(layers.map((layer) => layer.value)),
          low: harmonic(layers.map((layer) => layer.low)),
          high: harmonic(layers.map((layer) => layer.high)),
          spreadKnown: layers.every((layer) => layer.spreadKnown),
        }
      : null;
  const deviceRange = fastestPlainRange(facts);
  if (
    !options.speedOverSecurity &&
    cascadeRate !== null &&
    cascadeRange !== null &&
    device !== null &&
    deviceRange !== null &&
    leadsBeyondSpread(cascadeRange, deviceRange, 'compare-figures')
  ) {
    const headroom = cascadeRate / device;
    return {
      recommendations: [
        {
          ruleId: 'veracrypt-encryption',
          value: 'AES-Twofish-Serpent',
          reason: `The AES-Twofish-Serpent cascade measures ${formatRate(cascadeRate)} over ${String(cores)} cores, ${headroom.toFixed(1)}× the device's ${formatRate(device)}, so the extra layers cost no throughput here.`,
          evidence: reasons,
          confidence: 'medium',
        },
      ],
      findings: [],
      encryption: 'AES-Twofish-Serpent',
      // The model takes one cipher speed; a cascade's is the harmonic combination, not a measurement.
      speed: null,
    };
  }
  const measuredSingles = singles.filter((single) => single.rate !== null);
  // Another cipher replaces AES only when its slowest recorded run beats the incumbent's fastest: a lead
  // inside the runs' spread moves nothing (issue 24 item 4). Single runs record no spread: their figures decide.
  const beats = (candidate: (typeof singles)[number], incumbent: (typeof singles)[number]): boolean =>
    candidate.range !== null &&
    (incumbent.range === null || leadsBeyondSpread(candidate.range, incumbent.range, 'compare-figures'));
  const fastest =
    facts.machine?.cryptoFlags?.aes === true || measuredSingles.length === 0
      ? singles[0]
      : singles.reduce((best, single) => (beats(single, best) ? single : best));
  const name = fastest?.name ?? 'AES';
  const leader = measuredSingles.reduce<(typeof singles)[number] | undefined>(
    (best, single) => (best === undefined || (single.rate ?? 0) > (best.rate ?? 0) ? single : best),
    undefined,
  );
  const cascadeNote =
    cascadeRate === null
      ? 'a cascade was not measured'
      : device === null
        ? `a cascade would run at ${formatRate(cascadeRate)} and the device speed is unknown`
        : `a cascade (${formatRate(cascadeRate)} on ${String(cores)} cores) would hold back the device (${formatRate(device)})`;
  return {
    recommendations: [
      {
        ruleId: 'veracrypt-encryption',
        value: name,
        reason:
          facts.machine?.cryptoFlags?.aes !== true &&
          leader !== undefined &&
          leader !== fastest &&
          (leader.rate ?? 0) > (fastest?.rate ?? 0)
            ? `${name} alone: ${leader.name} measured ${formatRate(leader.rate ?? 0)} against ${formatRate(fastest?.rate ?? 0)}, a lead inside the spread of the repeated runs, so it decides nothing; and ${cascadeNote}.`
            : `${name} alone is the fastest measured cipher here and ${cascadeNote}.`,
        evidence: reasons,
        confidence: (fastest?.rate ?? null) === null ? 'low' : 'high',
      },
    ],
    findings: [],
    encryption: name,
    speed: fastest?.speed ?? null,
  };
}
