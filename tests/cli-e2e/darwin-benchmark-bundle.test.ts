import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { assessmentSchemaErrors } from '../support/schema.js';

/**
 * `encplan assess --bundle` over the benchmarked macOS bundle (fixtures/bundles/darwin-fio-apfs-image-benchmark-composed,
 * see its PROVENANCE.md): fio on a plain and an encrypted APFS disk image, replayed end to end by the built CLI.
 */
const BUNDLE = 'fixtures/bundles/darwin-fio-apfs-image-benchmark-composed';

describe('a benchmarked macOS bundle (fio, plain versus an encrypted APFS disk image)', () => {
  it('assess --json: valid, plain and apfs measured with fio posixaio, the overhead of every profile, the cost cites it', () => {
    const run = runCli(['assess', '--bundle', BUNDLE, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      result: {
        ioBenchmark: {
          target: string;
          plain: { backend: string; ioEngine: string; profiles: unknown[] };
          encrypted: {
            backend: string;
            ioEngine: string;
            verification: { method: string; cipher: string };
          }[];
          overhead: { profileId: string; plainBytesPerSecond: number; encryptedBytesPerSecond: number }[];
        };
        plan: { recommendations: { ruleId: string; value: string; reason: string }[] };
      };
      warnings: { code: string }[];
    };
    expect(assessmentSchemaErrors(document)).toBeNull();
    const io = document.result.ioBenchmark;
    expect(io.target).toBe('/System/Volumes/Data');
    expect(io.plain).toMatchObject({ backend: 'plain', ioEngine: 'posixaio' });
    expect(io.plain.profiles).toHaveLength(4);
    expect(
      io.encrypted.map((target) => [target.backend, target.ioEngine, target.verification.cipher]),
    ).toEqual([['apfs', 'posixaio', 'AES-256']]);
    expect(io.encrypted[0]?.verification.method).toMatch(
      /^hdiutil isencrypted \/var\/folders\/.*\/apfs\.dmg$/,
    );
    expect(
      io.overhead.map((row) => [row.profileId, row.plainBytesPerSecond, row.encryptedBytesPerSecond]),
    ).toEqual([
      ['seq1m-q8t1-read', 63_446_119, 41_380_254],
      ['rnd4k-q1t1-read', 63_446_119, 41_380_254],
      ['seq1m-q8t1-write', 29_217_251, 20_092_474],
      ['rnd4k-q1t1-write', 29_217_251, 20_092_474],
    ]);
    const cost = document.result.plan.recommendations.find((item) => item.ruleId === 'macos-encryption-cost');
    // An Intel Mac without T2 (AESHardware false): software encryption, a measured cost with the figures.
    expect(cost?.value).toBe('measured cost');
    expect(cost?.reason).toContain('read at 65 % and wrote at 69 % of a plain one’s speed');
    expect(document.warnings.map((warning) => warning.code)).not.toContain('PLATFORM_LIMITED');
  });

  it('the text report shows plain and encrypted figures and names the image’s cost an upper bound', () => {
    const run = runCli(['assess', '--bundle', BUNDLE, '--verbose']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Plain versus encrypted I/O');
    expect(run.stdout).toMatch(/SEQ1M Q8T1 write\s+plain\s+27\.9 MiB\/s\s+fio \(posixaio, O_DIRECT/);
    expect(run.stdout).toMatch(/SEQ1M Q8T1 write\s+apfs\s+19\.2 MiB\/s/);
    expect(run.stdout).toMatch(/SEQ1M Q8T1 write\s+apfs\s+27\.9 MiB\/s\s+19\.2 MiB\/s\s+0\.69/);
    expect(run.stdout).toContain('an upper bound of APFS encryption');
    expect(run.stdout).not.toContain('Benchmarks do not run');
  });
});
