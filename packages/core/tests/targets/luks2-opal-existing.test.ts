import { describe, expect, it } from 'vitest';
import { linuxStorageModel } from '../../src/analyses/storage-model.js';
import { parseLuks2JsonMetadata } from '../../src/parsers/cryptsetup/parse-luks-dump.js';
import { toReportViewFromJson } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { luks2OpalTarget } from '../../src/targets/luks2-opal/luks2-opal.js';
import { recogniseLuks2Segment } from '../../src/targets/registry.js';
import { planFromAssessment } from '../../src/use-cases/plan-from-assessment.js';
import { filesystemOf, stackNode } from '../../../../tests/support/stack-node.js';
import { fixture } from '../support/fixtures.js';

/*
 * Issue 26 items 3 and 4: an existing LUKS2 header made with cryptsetup 2.7 `luksFormat --hw-opal` (segment
 * "hw-opal-crypt": dm-crypt on an OPAL locking range) or `--hw-opal-only` (segment "hw-opal": the drive alone) is
 * recognised by the luks2-opal target and said as such in the storage model, the plan and the report. The headers
 * are fixtures written from cryptsetup v2.7.0's source (no capture exists: their PROVENANCE says why).
 */
const CRYPT = 'json-luks2-hw-opal-crypt-constructed-v2.7';
const ONLY = 'json-luks2-hw-opal-only-constructed-v2.7';
const PARTITION = '/dev/loop2p2';
const header = (name: string) => ({
  ...parseLuks2JsonMetadata(fixture(`cryptsetup-luksdump/${name}/stdout`)),
  path: PARTITION,
  source: 'cryptsetup luksDump --dump-json-metadata',
});
/** The real assessment of a loop disk with a LUKS2 partition (fixtures/assessments), its header replaced. */
function assessmentWith(name: string): unknown {
  const document = JSON.parse(fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json')) as {
    result: { encryption: { found: unknown[] } };
  };
  document.result.encryption.found = [header(name)];
  return document;
}

describe('the luks2-opal target recognises its own LUKS2 headers', () => {
  it.each([
    ['hw-opal-crypt', 'LUKS2 + OPAL', true],
    ['hw-opal', 'OPAL only (hardware)', false],
  ])('segment %s: %s, dm-crypt on top %s', (type, label, software) => {
    expect(recogniseLuks2Segment(type)).toMatchObject({
      target: luks2OpalTarget,
      segment: { label, softwareEncryption: software },
    });
  });

  it('a plain dm-crypt segment, or no OPAL at all, is not its; an OPAL header whose segment was not read is', () => {
    expect(recogniseLuks2Segment('crypt')).toBeNull();
    expect(recogniseLuks2Segment(undefined)).toBeNull();
    expect(recogniseLuks2Segment(null)).toEqual({ target: luks2OpalTarget, segment: null });
  });
});

describe('the storage model says hardware OPAL is part of the encryption', () => {
  const modelWith = (name: string | null, dmUuid = 'CRYPT-LUKS2-0a1b-cryptdata') => {
    const crypt = stackNode('dm-0', 'crypt', {
      path: '/dev/mapper/cryptdata',
      mapperName: 'cryptdata',
      dmUuid,
      filesystem: filesystemOf('ext4', { usedPercent: 20 }),
      mountpoints: ['/data'],
    });
    const part = stackNode('loop2p2', 'part', { children: [crypt] });
    return linuxStorageModel({
      disk: { path: '/dev/loop2', model: null, sizeBytes: 1 << 30, transport: 'loop' },
      media: { kind: 'ssd' },
      partitions: [{ path: PARTITION, number: 2, typeId: null, sizeBytes: 1 << 29 }],
      stack: stackNode('loop2', 'disk', { children: [part] }),
      encryption: { found: name === null ? [] : [header(name)], veracryptDetectable: false, note: '' },
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
    });
  };

  it('--hw-opal: dm-crypt’s cipher and key, the drive encrypting below, the locking range, at the header and the volume', () => {
    const model = modelWith(CRYPT);
    const expected = {
      kind: 'luks2',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      hardware: true,
      protection: 'on',
      opal: { segmentType: 'hw-opal-crypt', lockingRange: 3, keyBits: 256, rangeBytes: 999_636_860_928 },
    };
    expect(model.partitions[0]?.encryption).toMatchObject(expected);
    expect(model.volumes[0]?.encryption).toMatchObject(expected);
  });

  it('--hw-opal-only: no software cipher or key (null, never a guess), protection by the drive alone', () => {
    expect(modelWith(ONLY).volumes[0]?.encryption).toMatchObject({
      kind: 'luks2',
      cipher: null,
      keyBits: null,
      hardware: true,
      opal: { segmentType: 'hw-opal', lockingRange: 3 },
    });
  });

  it('plain LUKS2 says nothing about the drive; an open LUKS2-OPAL mapping without its header does', () => {
    const plain = modelWith(null);
    expect(plain.volumes[0]?.encryption).toMatchObject({ kind: 'luks2', hardware: null });
    expect(plain.volumes[0]?.encryption).not.toHaveProperty('opal');
    // cryptsetup 2.7 names the mapping of a LUKS2 volume on OPAL "CRYPT-LUKS2-OPAL-…" (lib/internal.h).
    const opened = modelWith(null, 'CRYPT-LUKS2-OPAL-0a1b-cryptdata');
    expect(opened.volumes[0]?.encryption).toMatchObject({ kind: 'luks2', hardware: true });
  });
});

describe('the plan and the report say it', () => {
  it('--hw-opal-only: the opal-trust warning (Meijer & van Gastel 2019) and dm-crypt missing as a difference', () => {
    const plan = planFromAssessment(assessmentWith(ONLY));
    const trust = plan.findings.find((finding) => finding.ruleId === 'opal-trust');
    expect(trust).toMatchObject({ severity: 'warning' });
    expect(trust?.message).toContain(
      `OPAL only (hardware) on ${PARTITION}: Only the drive’s firmware encrypts`,
    );
    expect(trust?.message).toContain('Self-encrypting deception');
    expect(plan.strategy?.kind).toBe('nothing-to-do');
    expect(plan.strategy?.reason).toContain(`${PARTITION} is already encrypted (OPAL only (hardware))`);
    expect(plan.strategy?.reason).toContain('cipher none (OPAL only (hardware)) → aes-xts-plain64');
    expect(plan.strategy?.reason).toContain(
      'only by backing up and formatting again (LUKS2 on OPAL cannot be reencrypted)',
    );
    // No dm-crypt layer: nothing for cryptsetup refresh to change.
    expect(plan.strategy?.reason).toContain('No dm-crypt layer, so no activation flags to change');
    expect(plan.strategy?.reason).not.toContain('cryptsetup refresh');
    // dm-crypt's activation flags are no difference where there is no dm-crypt.
    expect(plan.strategy?.differences.map((row) => row.setting)).not.toContain('allow-discards');
    expect(plan.commands).toEqual([]);
  });

  it('--hw-opal: an info finding that dm-crypt stays on top, no cipher difference', () => {
    const plan = planFromAssessment(assessmentWith(CRYPT));
    expect(plan.findings.find((finding) => finding.ruleId === 'opal-trust')).toMatchObject({
      severity: 'info',
      message: expect.stringContaining(
        'dm-crypt encrypts on top of the drive’s OPAL locking range',
      ) as unknown,
    });
    expect(plan.strategy?.reason).toContain(`${PARTITION} is already encrypted (LUKS2 + OPAL)`);
    expect(plan.strategy?.differences.map((row) => row.setting)).not.toContain('cipher');
  });

  it('plain LUKS2 gets no opal-trust finding', () => {
    const document = JSON.parse(
      fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'),
    ) as unknown;
    expect(planFromAssessment(document).findings.map((finding) => finding.ruleId)).not.toContain(
      'opal-trust',
    );
  });

  it('the text report’s existing-encryption section names it and says what protects the data', () => {
    const text = (name: string) =>
      renderTextReport(toReportViewFromJson(assessmentWith(name)), { verbose: true, width: null });
    const only = text(ONLY);
    expect(only).toContain(
      `OPAL only (hardware) on ${PARTITION} (no software cipher, OPAL locking range 3 (256-bit OPAL key), key slots: argon2id).`,
    );
    expect(only).toContain('Only the drive’s firmware encrypts this data');
    const crypt = text(CRYPT);
    expect(crypt).toContain(
      `LUKS2 + OPAL on ${PARTITION} (aes-xts-plain64, 512-bit key, OPAL locking range 3 (256-bit OPAL key), key slots: argon2id).`,
    );
    expect(crypt).toContain('dm-crypt encrypts on top of the drive’s OPAL locking range');
  });
});
