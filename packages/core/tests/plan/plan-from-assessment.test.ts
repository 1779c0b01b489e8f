import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assessAllBundle,
  assessBundle,
  healthFromSmartctlJson,
  planFromAssessment,
  type PlanOptions,
} from '@encplan/core';
import { type CipherSpeedMeasurement } from '../../src/domain/cipher.js';
import {
  assessmentDocument,
  linuxResultOf,
  type AssessmentEnvelope,
  type AssessmentResult,
  type LinuxAssessmentResult,
} from '../../src/contract/assessment.js';
import { buildPlan } from '../../src/plan/plan.js';
import { type PlanFacts } from '../../src/rules/facts.js';
import { planFactsFromDocument } from '../../src/use-cases/plan-from-assessment.js';
import { parseBundle } from '../../src/capture/bundle.js';
import { FIXTURES, fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

/**
 * Every bundle under fixtures/bundles that assesses (Linux, macOS and Windows: the platform bundles go through
 * the platform probe set, assessment 1.2), replayed through the assess use case. The macOS bundle of a network
 * path has no disk to assess (DEVICE_NOT_FOUND) and is left out.
 */
async function assessedBundles(): Promise<{ name: string; envelope: AssessmentEnvelope }[]> {
  const bundles = readdirSync(path.join(FIXTURES, 'bundles'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      bundle: parseBundle(JSON.parse(fixture(`bundles/${entry.name}/bundle.json`))),
    }));
  // A `collect --all` bundle gives one assessment per disk that could be assessed; a bundle that cannot be
  // assessed (the macOS network path) gives none.
  const assessed = await Promise.all(
    bundles.map(async ({ name, bundle }) =>
      bundle.all === true
        ? ((await assessAllBundle(bundle, clock)).result?.disks ?? []).flatMap((disk) =>
            disk.assessment === null
              ? []
              : [
                  {
                    name: `${name} ${disk.device}`,
                    envelope: assessmentDocument.ok(disk.assessment, disk.warnings, clock.now()),
                  },
                ],
          )
        : [{ name, envelope: await assessBundle(bundle, clock).catch(() => null) }],
    ),
  );
  return assessed.flat().flatMap(({ name, envelope }) => (envelope === null ? [] : [{ name, envelope }]));
}

/** Every committed `assess --json` document with a result (fixtures/assessments). */
function savedAssessments(): { name: string; envelope: AssessmentEnvelope }[] {
  return readdirSync(path.join(FIXTURES, 'assessments'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, envelope: JSON.parse(fixture(`assessments/${name}`)) as AssessmentEnvelope }))
    .filter(({ envelope }) => envelope.result !== null);
}

async function assessedLoop(): Promise<LinuxAssessmentResult> {
  const bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));
  const envelope = await assessBundle(bundle, clock);
  const linux = envelope.result === null ? null : linuxResultOf(envelope.result);
  if (linux === null) {
    throw new Error('the bundle did not assess as Linux');
  }
  return linux;
}

describe('planFromAssessment reads every document `assess --json` emits', () => {
  it('plans the envelope, its bare result and the result without its plan alike', () => {
    for (const { envelope } of savedAssessments()) {
      const fromEnvelope = planFromAssessment(envelope);
      expect(planFromAssessment(envelope.result)).toEqual(fromEnvelope);
      expect(planFromAssessment({ ...envelope.result, plan: null })).toEqual(fromEnvelope);
    }
  });

  it('is the one path: assess builds exactly the plan `plan --input` makes of its output', async () => {
    for (const { envelope } of await assessedBundles()) {
      expect(envelope.result?.plan).toEqual(planFromAssessment(envelope));
    }
  });

  it('plans from an empty document, every fact unknown', () => {
    const plan = planFromAssessment({});
    expect(plan).toMatchObject({ devicePath: '/dev/DEVICE', devicePlaceholder: true, targetTool: 'luks2' });
    expect(plan.healthGate).toMatchObject({ status: 'caution', effectiveVerdict: 'unknown' });
    expect(plan.predictedPerformance.every((row) => row.plainReadBytesPerSecond === null)).toBe(true);
  });

  it('reads a missing section as unknown, not as "no": a disk with no trim section still allows discards', () => {
    const plan = planFromAssessment({
      disk: { path: '/dev/sdz', partitionTable: 'none' },
      media: { kind: 'ssd' },
    });
    expect(plan.settings.allowDiscards).toBe(true);
    expect(plan.recommendations.find((r) => r.ruleId === 'allow-discards')?.confidence).toBe('medium');
  });

  it('plans the minimal input docs/plan-input.md shows', () => {
    const docs = readFileSync(path.join(FIXTURES, '../docs/plan-input.md'), 'utf8');
    const example = /```json\n([\s\S]*?)\n```/.exec(docs)?.[1] ?? '';
    const plan = planFromAssessment(JSON.parse(example));
    expect(plan).toMatchObject({ devicePath: '/dev/nvme0n1', devicePlaceholder: false });
    expect(plan.settings).toMatchObject({
      cipher: 'aes-xts-plain64',
      keySizeBits: 512,
      sectorSizeBytes: 4096,
    });
  });

  it('refuses a failed assessment with its error message', () => {
    const failed = JSON.parse(fixture('assessments/error-device-not-found.json')) as AssessmentEnvelope;
    expect(() => planFromAssessment(failed)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('does not exist') as string,
      }),
    );
  });
});

describe('measured facts reach the plan', () => {
  it('fills the predictions of the benchmarked virtio assessment from its measured plain speed', () => {
    const document = JSON.parse(
      fixture('assessments/virtio-system-disk-whole-ext4-debian12.json'),
    ) as AssessmentEnvelope;
    const io = document.result?.ioBenchmark;
    const measured = (id: string) =>
      io?.plain.profiles.find((profile) => profile.profile.id === id)?.summary.medianBytesPerSecond;
    // fio measured 946,631,111 B/s SEQ1M Q8T1 read on this disk (the fixture's ioBenchmark.plain).
    expect(measured('seq1m-q8t1-read')).toBe(946_631_111);
    const plan = planFromAssessment(document);
    for (const row of plan.predictedPerformance) {
      expect(row.plainReadBytesPerSecond).toBe(measured(`${row.profile}-read`));
      expect(row.plainWriteBytesPerSecond).toBe(measured(`${row.profile}-write`));
      // Only OpenSSL measured AES-XTS here, and this kernel's xts(aes) is the generic C driver: OpenSSL's AES-NI
      // figure says nothing about dm-crypt, so no prediction is made from it (issue 24), never "limited by the drive".
      expect(row.predictedWriteBytesPerSecond).toBeNull();
      expect(row.writeLimitedBy).toBeNull();
    }
    expect(plan.cipherEvidence).toMatchObject({ rank: null, kind: null, upperBound: false });
    expect(plan.cipherEvidence?.note).toContain('xts(ecb(aes-fixed-time))');
    const keySize = plan.recommendations.find((r) => r.ruleId === 'cipher-key-size');
    expect(keySize?.reason).not.toContain('device speed unmeasured');
    expect(keySize?.evidence.find((e) => e.fact.startsWith('fastest plain'))?.value).toBe(
      measured('seq1m-q8t1-write'),
    );
  });

  it('compares the measured LUKS2 variants for the workqueue decision', async () => {
    const loop = await assessedLoop();
    const run = (variant: string, mib: number) => ({
      backend: 'luks2' as const,
      variant,
      profiles: [
        {
          profile: {
            id: 'rnd4k-q32t1-read',
            pattern: 'random',
            direction: 'read',
            blockSizeBytes: 4096,
            queueDepth: 32,
            threads: 1,
          },
          // Three runs spreading 5 %: the 33 % difference is beyond it, so the measurement decides.
          summary: { medianBytesPerSecond: mib * 1_048_576, runCount: 3, spreadPercent: 5 },
        },
      ],
    });
    const plan = planFromAssessment({
      ...loop,
      media: { kind: 'ssd', reason: 'test' },
      ioBenchmark: {
        encrypted: [run('luks2 sector 4096', 300), run('luks2 sector 4096, no workqueues', 200)],
      },
    });
    const bypass = plan.recommendations.find((r) => r.ruleId === 'workqueue-bypass');
    expect(bypass).toMatchObject({ value: false, confidence: 'high' });
    expect(bypass?.reason).toContain('33 % slower');
  });

  it('acts on a failing verdict, a dm-crypt layer that blocks, kernel drivers and merged cipher and KDF speeds', async () => {
    const loop = await assessedLoop();
    const [walked] = loop.discardPassthrough.paths;
    const measurement = (
      source: 'cryptsetup' | 'openssl',
      cipher: string,
      keyBits: number,
      oneCore: number,
      allCores: number | null,
    ): CipherSpeedMeasurement => ({
      cipher,
      keyBits,
      source,
      encryptBytesPerSecond: oneCore,
      decryptBytesPerSecond: oneCore,
      allCoresEncryptBytesPerSecond: allCores,
      allCoresDecryptBytesPerSecond: allCores,
      allCoresThreads: allCores === null ? null : 2,
      messageBytes: null,
      argv: [source, 'benchmark'],
    });
    const result: AssessmentResult = {
      ...loop,
      health: healthFromSmartctlJson(
        fixture('plan-inputs/sources/sata-hdd-seagate-st3500418as-realloc304-v7.3.json'),
      ).health,
      discardPassthrough: {
        ...loop.discardPassthrough,
        paths: [
          {
            ...walked!,
            passesToDisk: false,
            layers: [
              {
                ...walked!.layers[0]!,
                kind: 'dm-crypt',
                name: 'cryptroot',
                blocksHere: true,
                passesDiscards: false,
              },
              ...walked!.layers.slice(1),
            ],
          },
        ],
      },
      kernelCrypto: {
        xtsAes: {
          algorithm: 'xts(aes)',
          driver: 'xts(ecb(aes-fixed-time))',
          module: null,
          priority: 100,
          inferred: false,
        },
        xtsAesImplementation: 'generic',
        adiantum: 'absent',
        adiantumDrivers: [],
        algorithmCount: 10,
      },
      cipherBenchmark: {
        cpuHasAes: true,
        kernelCrypto: null,
        cipherSpeed: {
          measurements: [
            measurement('openssl', 'aes-xts', 512, 4_000_000_000, 7_800_000_000),
            measurement('cryptsetup', 'aes-xts', 512, 2_400_000_000, null),
            measurement('openssl', 'chacha20', 256, 1, 1),
          ],
          unmeasured: [],
          kernelCipherBenchmarkAvailable: true,
        },
        kdfSpeed: {
          pbkdf2: [{ hash: 'sha512', iterationsPerSecond: 1_685_813, derivedKeyBits: 256 }],
          argon2: [
            {
              variant: 'argon2id',
              timeCost: 5,
              memoryKibibytes: 1_048_576,
              threads: 4,
              derivedKeyBits: 256,
              requestedDurationMs: 2000,
            },
          ],
          unmeasured: [],
        },
        findings: [],
      },
    };
    const plan = planFromAssessment(result);
    expect(plan.healthGate).toMatchObject({ status: 'back-up-first', effectiveVerdict: 'failing' });
    expect(plan.findings.map((finding) => finding.ruleId)).toEqual([
      'health-gate',
      'kernel-aes-driver-unaccelerated',
    ]);
    // cryptsetup's (the kernel's) one-core rate wins over OpenSSL's; the all-cores rate comes from OpenSSL.
    const mode = plan.recommendations.find((r) => r.ruleId === 'cipher-mode');
    expect(mode?.evidence.find((e) => e.fact === 'aes-xts 512b encrypt, one core (bytes/s)')?.value).toBe(
      2_400_000_000,
    );
    expect(plan.settings.luks2Pbkdf).toMatchObject({ memoryKiB: 1_048_576, parallel: 2, iterations: 5 });
    // The dm-crypt layer that blocks is fixed by refreshing it, so the tail shrinks once discards pass.
    expect(plan.settings.space?.trimReachesDrive).toBe(false);

    const veracrypt = planFromAssessment(result, { targetTool: 'veracrypt' });
    expect(veracrypt.settings.veracrypt).toMatchObject({ hash: 'sha512' });
  });
});

/**
 * Fields the rules read that no fixture can have a value for yet, each with the reason. Everything else a rule
 * reads must be non-null in at least one real assessment, or the rule reads a fact the assessment never fills.
 */
const NEVER_FILLED_YET: Readonly<Record<string, string>> = {
  'overProvisioning.factorySpareBytes':
    'no probe reads the factory spare yet (analyses/drive-sections.ts sets null)',
  'space.nvme': 'the fixtures are virtio and loop disks: no NVMe capacity facts',
  'space.hostProtectedArea': 'the fixtures are virtio and loop disks: hdparm -N has no HPA to read',
  'trim.readsZeroesAfterTrim': 'needs ATA RZAT or NVMe DLFEAT from the drive; the fixture disks are virtual',
  // The macOS/Windows bundles hold no capture of these tools (fixtures/bundles/PROVENANCE-platforms.md).
  'storage.fileVault': 'no fdesetup status capture of the bundled Macs',
  'storage.disk.health.wearPercent':
    'no smartctl or Get-StorageReliabilityCounter capture in the platform bundles (the collect-platform test replays smartctl on macOS)',
  platformStorage:
    'deprecated input (assessment 1.2–1.3 documents, hand-made facts): the bundles replay to 1.4 documents without it',
  'cipherBenchmark.kdfSpeed.pbkdf2[].iterationsPerSecondSamples':
    'repeated PBKDF2 runs came with quick revision 5; the benchmarked fixtures were collected with one run per hash',
  'encryption.found[].opal':
    'no assessment of a LUKS2 header made with cryptsetup --hw-opal exists: this host has cryptsetup 2.6.1 and QEMU NVMe no TCG security commands (targets/luks2-opal-existing.test.ts plans from headers written from cryptsetup v2.7.0 source)',
  'partitions[].filesystem.availableBytes':
    'lsblk reports FSAVAIL for mounted filesystems only; the one mounted fixture (loop-ext4-mounted-benchmark-quick-debian12) holds its filesystem on the whole disk, not in a partition',
};

/** Records every field path read through the proxy ("a.b[].c"); array methods and lengths are not facts. */
function recording(value: unknown, reads: Set<string>, at = ''): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  return new Proxy(value, {
    get(target, key, receiver) {
      const field = Reflect.get(target, key, receiver) as unknown;
      if (
        typeof key === 'symbol' ||
        typeof field === 'function' ||
        (Array.isArray(target) && key === 'length')
      ) {
        return field;
      }
      const name = Array.isArray(target) && /^\d+$/.test(key) ? `${at}[]` : at === '' ? key : `${at}.${key}`;
      if (!(Array.isArray(target) && /^\d+$/.test(key))) {
        reads.add(name);
      }
      return recording(field, reads, name);
    },
  });
}

/** Whether `document` holds a non-null value at `fieldPath` (any element of an array counts). */
function filledAt(document: unknown, fieldPath: string): boolean {
  const steps = fieldPath.replace(/\[\]/g, '.[]').split('.');
  let values: unknown[] = [document];
  for (const step of steps) {
    values = values.flatMap((value) => {
      if (step === '[]') {
        return Array.isArray(value) ? (value as unknown[]) : [];
      }
      return value !== null && typeof value === 'object' ? [(value as Record<string, unknown>)[step]] : [];
    });
  }
  return values.some((value) => value !== null && value !== undefined);
}

describe('the rules read only facts the assessment fills', () => {
  it('every field the plan builder reads is non-null in at least one real assessment or bundle', async () => {
    const documents: { name: string; facts: PlanFacts }[] = [
      ...savedAssessments().map(({ name, envelope }) => ({ name, facts: planFactsFromDocument(envelope) })),
      ...(await assessedBundles()).map(({ name, envelope }) => ({
        name,
        facts: planFactsFromDocument(envelope),
      })),
    ];
    // The fixture disks have no SMART; give the loop assessment the health section each real smartctl capture
    // makes (what assess would report for such a drive), so the health facts are checked against real analyses.
    const loop = await assessedLoop();
    for (const capture of [
      'nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3.json',
      'sata-hdd-seagate-st3500418as-realloc304-v7.3.json',
    ]) {
      const health = healthFromSmartctlJson(fixture(`plan-inputs/sources/${capture}`)).health;
      documents.push({ name: `loop + ${capture}`, facts: planFactsFromDocument({ ...loop, health }) });
    }
    const reads = new Set<string>();
    const variants: PlanOptions[] = [
      {},
      { targetTool: 'veracrypt' },
      { threatModel: 'targeted', workload: 'write-heavy', speedOverSecurity: true },
    ];
    for (const { facts } of documents) {
      for (const options of variants) {
        buildPlan(recording(facts, reads) as PlanFacts, options);
      }
    }
    expect(reads.size).toBeGreaterThan(20);
    const unfilled = [...reads]
      .filter((field) => !documents.some(({ facts }) => filledAt(facts, field)))
      .filter((field) => NEVER_FILLED_YET[field] === undefined)
      .sort();
    expect(unfilled).toEqual([]);
    // The allowlist names only fields the rules really read and no fixture fills (remove an entry once one does).
    const stale = Object.keys(NEVER_FILLED_YET).filter(
      (field) => !reads.has(field) || documents.some(({ facts }) => filledAt(facts, field)),
    );
    expect(stale).toEqual([]);
  });

  it('fails for a field no assessment fills (the check itself can fail)', () => {
    const reads = new Set<string>();
    const read = recording({ health: { verdict: 'unknown' } }, reads) as {
      health: { verdict: string; invented?: unknown };
    };
    void read.health.invented;
    expect([...reads]).toContain('health.invented');
    expect(filledAt({ health: { verdict: 'unknown' } }, 'health.invented')).toBe(false);
    expect(filledAt({ list: [{ a: null }, { a: 1 }] }, 'list[].a')).toBe(true);
  });
});
