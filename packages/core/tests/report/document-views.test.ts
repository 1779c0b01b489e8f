import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessmentDocument, planFromAssessment, renderTextReport, toReportView } from '@encplan/core';
import { assessHealth, unavailableHealth } from '../../src/analyses/health.js';
import { computeOverhead } from '../../src/analyses/io-overhead.js';
import { summariseDrive } from '../../src/analyses/drive-summary.js';
import type { CipherBenchmark, CipherSpeedMeasurement, KernelCryptoFacts } from '../../src/domain/cipher.js';
import type { IoBenchmark } from '../../src/domain/io-benchmark.js';
import { parseNvmeSmartLog } from '../../src/parsers/nvme/smart-log.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import {
  toCipherBenchmarkView,
  toHealthDocumentView,
  toIoBenchmarkView,
  toPlanDocumentView,
} from '../../src/report/document-views.js';
import { renderDocumentText } from '../../src/report/text-report.js';
import { kernelCryptoOfFixture } from '../../../../tests/support/fixture-files.js';
import { MIB, fioRun, targetMeasurement } from '../../../../tests/support/io-measurements.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { fixture } from '../support/fixtures.js';

const input = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures/plan-inputs', `${name}.json`), 'utf8'));
const assessment = (name: string) =>
  assessmentDocument.envelope.parse(
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures/assessments', `${name}.json`), 'utf8')),
  );
const planText = (name: string, includeDestructive = false): string =>
  renderDocumentText(toPlanDocumentView(planFromAssessment(input(name)), { includeDestructive }));
const SAMSUNG = parseSmartctlJson(fixture('smartctl/nvme-samsung-970evo-500gb-v7.0/stdout.json'));

describe('encplan plan: the plan part of the assessment view', () => {
  it('leads with the verdict and what to fix first, before the reasons', () => {
    const text = planText('sata-failing-realloc304-seagate');
    expect(text.split('\n')[0]).toBe(
      'encplan plan for /dev/sda: LUKS2, threat model lost-device, workload desktop',
    );
    const verdict = text.indexOf('STOP  Back up first: do not encrypt /dev/sda');
    const fixFirst = text.indexOf('Fix first\n  1. The drive is failing (304 sectors');
    const why = text.indexOf('Why: each recommendation and its evidence');
    expect(verdict).toBeGreaterThan(-1);
    expect(verdict).toBeLessThan(fixFirst);
    expect(fixFirst).toBeLessThan(why);
  });

  it('shows each recommendation as the assessment report does, from the same builders', () => {
    const text = planText('x64-aesni-laptop-nvme');
    expect(text).toContain('Cipher: aes-xts-plain64  (confidence high (measured here); rule cipher-mode)');
    expect(text).toMatch(/^ {5}The CPU has AES instructions/m);
    expect(text).toContain(
      '· aes-xts 512b encrypt, one core: 2334.9 MiB/s  [cryptsetup: cryptsetup benchmark]',
    );
    // The same lines as the plan in `assess --verbose` (one set of builders and one renderer).
    const assessed = assessment('loop-gpt-ext4-luks2-unallocated-debian12');
    const report = renderTextReport(toReportView(assessed), { verbose: true });
    const alone = renderDocumentText(toPlanDocumentView(assessed.result!.plan!));
    const why = (full: string): string => {
      const start = full.indexOf('Why: each recommendation');
      return full.slice(start, full.indexOf('\n\n', start));
    };
    expect(why(alone).length).toBeGreaterThan(100);
    expect(why(alone)).toBe(why(report));
  });

  it('states the assumption of every prediction and where GPU figures do not transfer', () => {
    const text = planText('arm64-aes-rpi5');
    expect(text).toMatch(/^ {2}SEQ1M Q8T1 read +\S/m);
    expect(text).toContain('· RND4K Q1T1: One small request at a time');
    expect(text).toContain('· SEQ1M Q1T1: One large request at a time');
    expect(planText('x64-aesni-laptop-nvme')).toMatch(
      /LUKS2 argon2id +one RTX 4090 +41\.4 bits +no published figure applies/,
    );
  });

  it('ends with the script, destructive lines marked and commented out unless asked', () => {
    const safe = planText('arm64-aes-rpi5');
    expect(safe).toMatch(
      /Commands \(planning ran none of them\)\n {2}#!\/bin\/sh[\s\S]*^ {2}# DESTROYS DATA\n/m,
    );
    expect(safe).toMatch(/^ {2}# cryptsetup luksFormat/m);
    expect(safe).not.toMatch(/^ {2}cryptsetup /m);
    const live = planText('arm64-aes-rpi5', true);
    expect(live).toMatch(/^ {2}# DESTROYS DATA: this line runs \(--destructive was given\)\./m);
    expect(live).toMatch(/^ {2}cryptsetup luksFormat/m);
  });
});

describe('encplan health: the assessment health section', () => {
  it('gives the verdict, then each finding with attribute, rule and source, then the figures', () => {
    const health = assessHealth(SAMSUNG.facts);
    const lines = renderDocumentText(toHealthDocumentView(health, summariseDrive(SAMSUNG), [])).split('\n');
    expect(lines[0]).toBe('encplan health: Samsung SSD 970 EVO 500GB (NVME, smartctl 7.0)');
    expect(lines[2]).toBe('Drive health: failing (PROBLEM)');
    expect(lines[4]).toBe(
      '  ! The drive reports 7 unrecovered media/data integrity errors.  [smartctl: nvme_smart_health_information_log.media_errors; rule >= 1 (NVMe Base Spec media_errors, scale of ATA 187: Backblaze, "What SMART Stats Tell Us About Hard Drives" (2016))]',
    );
    const text = lines.join('\n');
    expect(text).toMatch(/^ {2}Protocol +NVME \(smartctl -d nvme\) +\[smartctl\]$/m);
    expect(text).toMatch(/^ {2}Available spare +99\.0 % \(threshold 10\.0 %\)/m);
    // One unit formatter for the product: IEC (33.59 TB = 30.5 TiB), as every other view shows it.
    expect(text).toMatch(/^ {2}Data written +30\.5 TiB/m);
  });

  it('explains why the verdict is unknown', () => {
    const health = unavailableHealth(
      'tool-missing',
      'smartctl is not installed (apt-get install smartmontools).',
    );
    const text = renderDocumentText(toHealthDocumentView(health, summariseDrive(SAMSUNG), []));
    expect(text).toContain('Drive health: unknown (unknown)');
    expect(text).toContain('  ? smartctl is not installed (apt-get install smartmontools).');
    expect(text).toMatch(/^ {2}Endurance used +unknown$/m);
  });

  it('cites nvme-cli fields for an nvme-cli based section', () => {
    const health = assessHealth(
      parseNvmeSmartLog(fixture('nvme/smart-log-v2.3-seagate-firecuda530/stdout.json')),
    );
    const text = renderDocumentText(toHealthDocumentView(health, summariseDrive(SAMSUNG), []));
    expect(text).toContain('Drive health: healthy (ok)');
    expect(text).toContain('[nvme-cli: percent_used');
  });
});

const kernel: KernelCryptoFacts = kernelCryptoOfFixture('x86-vm-debian12-aes-fixed-time');
const row: CipherSpeedMeasurement = {
  cipher: 'aes-xts',
  keyBits: 512,
  source: 'openssl',
  encryptBytesPerSecond: 6245421056,
  decryptBytesPerSecond: null,
  allCoresEncryptBytesPerSecond: 7217213440,
  allCoresDecryptBytesPerSecond: null,
  allCoresThreads: 2,
  messageBytes: 4096,
  argv: [],
};
const result: CipherBenchmark = {
  cpuHasAes: true,
  kernelCrypto: kernel,
  cipherSpeed: { measurements: [row], unmeasured: [], kernelCipherBenchmarkAvailable: false },
  kdfSpeed: {
    pbkdf2: [{ hash: 'sha512', iterationsPerSecond: 1738932, derivedKeyBits: 256 }],
    argon2: [],
    unmeasured: [],
  },
  findings: [
    {
      id: 'kernel-aes-unaccelerated',
      severity: 'warning',
      message: 'The kernel would encrypt disks with xts(ecb(aes-fixed-time)).',
      hint: 'Load the accelerated driver.',
      evidence: {
        xtsAesDriver: 'xts(ecb(aes-fixed-time))',
        inferred: false,
        cpuHasAes: true,
        opensslAesXtsBytesPerSecond: 6245421056,
      },
    },
  ],
};

describe('encplan benchmark ciphers: the assessment cipher section', () => {
  it('puts the kernel driver finding first, and rates through the one formatter', () => {
    const text = renderDocumentText(toCipherBenchmarkView(result, []));
    expect(text).toContain('Cipher speed: measured (attention)');
    expect(text.indexOf('! The kernel would encrypt disks')).toBeLessThan(
      text.indexOf('aes-xts, 512-bit key'),
    );
    expect(text).toMatch(/Kernel AES-XTS driver +xts\(ecb\(aes-fixed-time\)\)/);
    // 6245421056 B/s / 2^20 = 5956.1 MiB/s; 7217213440 / 2^20 = 6882.9.
    expect(text).toMatch(
      /aes-xts, 512-bit key +one core: encrypt 5956\.1 MiB\/s, decrypt unknown; 2 threads: encrypt 6882\.9 MiB\/s, decrypt unknown {2}\[openssl\]/,
    );
    expect(text).toMatch(/PBKDF2-sha512, 256-bit key +1,738,932 iterations per second/);
    expect(text).not.toContain('slower than one core');
  });

  it('notes when all cores measured slower than one core, as on a shared virtual CPU', () => {
    const noisy = { ...row, allCoresEncryptBytesPerSecond: 3726180000 };
    const text = renderDocumentText(
      toCipherBenchmarkView({ ...result, cipherSpeed: { ...result.cipherSpeed, measurements: [noisy] } }, []),
    );
    expect(text).toContain('All cores measured slower than one core for aes-xts 512-bit');
  });

  it('lists what could not be measured with its code', () => {
    const text = renderDocumentText(
      toCipherBenchmarkView({ ...result, findings: [] }, [
        { code: 'TOOL_MISSING', message: 'cryptsetup is not installed', source: 'cryptsetup' },
      ]),
    );
    expect(text).toContain('Cipher speed: measured (info)');
    expect(text).toContain('  ! cryptsetup is not installed [cryptsetup; TOOL_MISSING]');
  });
});

const target = (backend: 'plain' | 'fscrypt', bytesPerSecond: number, cpu: number) =>
  targetMeasurement(backend, 0, [fioRun(bytesPerSecond, cpu)]);

describe('encplan benchmark io: the assessment I/O section', () => {
  it('shows measured rows, the overhead with ratio, CPU and bound, and skipped variants', () => {
    const plain = target('plain', 4064 * MIB, 15);
    const fscrypt = target('fscrypt', 47.8 * MIB, 2);
    const result: IoBenchmark = {
      mode: 'quick',
      target: '/srv',
      destructive: false,
      plain,
      encrypted: [fscrypt],
      overhead: computeOverhead(plain, fscrypt, 55 * MIB),
      skipped: [
        {
          backend: 'luks2',
          variant: 'luks2 sector 4096, no workqueues',
          code: 'KERNEL_FEATURE_MISSING',
          message: 'no device-mapper',
        },
      ],
      cipherBytesPerSecondPerCore: 55 * MIB,
      wallTimeMs: 30_000,
    };
    const text = renderDocumentText(toIoBenchmarkView(result, []));
    expect(text).toMatch(/Profile +Variant +Plain +Encrypted +Ratio +CPU plain \/ enc +Bound/);
    expect(text).toMatch(
      /SEQ1M Q8T1 read +\S+ +4064\.0 MiB\/s +47\.8 MiB\/s +0\.01 +15 % \/ 2 % +the cipher/,
    );
    expect(text).toMatch(
      /all profiles +luks2 sector 4096, no workqueues +not measured +skipped \(KERNEL_FEATURE_MISSING\): no device-mapper/,
    );
    expect(text).not.toMatch(/\bMB\/s/);
  });
});
