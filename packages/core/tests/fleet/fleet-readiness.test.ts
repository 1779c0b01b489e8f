import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetRow } from '../../src/domain/fleet-report.js';
import { fleetCsvColumns, renderFleetCsv } from '../../src/fleet/fleet-csv.js';
import { renderFleetHtml } from '../../src/fleet/fleet-html.js';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { renderFleetText } from '../../src/fleet/fleet-text.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';
import { storageModelOf } from '../../src/analyses/storage-model.js';
import { parseLuks2JsonMetadata } from '../../src/parsers/cryptsetup/parse-luks-dump.js';
import { readFleetDocuments } from '../../src/node/fleet-documents.js';
import { fixture, FIXTURES } from '../support/fixtures.js';

/*
 * Issue 26 items 4 and 5: every fleet row reads the one storage model, and shows the readiness columns fleet
 * tools get wrong (fleetdm/fleet#46227: a key outside LUKS slot 0; fleetdm/fleet#47256: multi-disk LVM;
 * osquery#7889: LVM on LUKS), on real `encplan assess --json` outputs the kernel lane wrote
 * (fixtures/assessments-kernel-lane/PROVENANCE.md) and the committed macOS and Windows bundles.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke single fields of a real document
type Doc = Record<string, any>;

const renderChart = await loadChartRenderer();
/** LUKS2 ×3 on partitions, LVM inside LUKS2, LUKS2 inside LVM, TCRYPT: guest test 50-assess-stacks. */
const STACKS = 'qemu-debian12-stacks-luks2-lvm-tcrypt';
/** LUKS2 with its only key in slot 3 and a token bound to it, a VG over vda2 and /dev/loop0: guest test 55. */
const SLOT3_SPAN = 'qemu-debian12-luks2-slot3-token-vg-two-disks';

const lane = (name: string): Doc => JSON.parse(fixture(`assessments-kernel-lane/${name}.json`)) as Doc;
const rowOf = (json: Doc, policy?: Parameters<typeof buildFleetReport>[1]): FleetRow => {
  const row = buildFleetReport([{ source: 'lane/vda.json', machine: 'lane', json }], policy).rows[0];
  if (row === undefined) {
    throw new Error('no row');
  }
  return row;
};
async function bundleRow(name: string, change?: (json: Doc) => void): Promise<FleetRow> {
  const documents: FleetDocument[] = [];
  for await (const document of await readFleetDocuments([path.join(FIXTURES, 'bundles', name)], {
    now: () => new Date('2026-11-26T12:00:00.000Z'),
  })) {
    documents.push(document);
  }
  const [document] = documents;
  if (document === undefined || !('json' in document)) {
    throw new Error(`bundle ${name} not replayed`);
  }
  change?.(document.json as Doc);
  const [row] = buildFleetReport([document]).rows;
  if (row === undefined) {
    throw new Error('no row');
  }
  return row;
}

describe('Linux rows read the storage model', () => {
  it('LVM on LUKS and LUKS on LVM: each encryption once, where it is managed, the LV above LUKS no second one', () => {
    const row = rowOf(lane(STACKS));
    expect(row.existingEncryption).toBe(
      [
        '/dev/vda1: luks2 aes-xts-plain64 512-bit pbkdf2',
        '/dev/vda2: luks2 aes-xts-plain64 512-bit pbkdf2',
        // LVM inside LUKS: the LUKS2 of vda3; the LV opened on top of it is no encryption of its own.
        '/dev/vda3: luks2 aes-xts-plain64 512-bit pbkdf2',
        // LUKS inside LVM: the header is on the LV, where cryptsetup reads it.
        '/dev/mapper/lanevg2-cryptlv: luks2 aes-xts-plain64 512-bit pbkdf2',
        // TCRYPT has no readable header once open: known from its dm UUID.
        '/dev/mapper/lane-tcrypt: tcrypt',
      ].join('; '),
    );
    expect(row).toMatchObject({
      platform: 'linux',
      readiness: 'fix-first',
      encryptionMethod: 'xts-aes-256',
      protectionOn: true,
      keySlotsBeyondZero: false,
      passphraseOutsideSlot0: false,
      // The TCRYPT volume's protectors cannot be read: whether a TPM holds a key is unknown, never "no".
      tpmProtector: null,
      spansDisks: false,
      otherDisks: '',
      discardsBlocked: true,
      discardsStopAt: '/dev/mapper/lane-nodiscards;/dev/mapper/lane-luks-in-lvm',
      // virtio is no NVMe: what the drive holds as written is unknown, so is what it could get back (not 0).
      reclaimableBytes: null,
      // Nothing mounted: no data volume to protect.
      protection: 'no-volumes',
    });
  });

  it('reads the model, not the encryption inventory: a change in the model is a change in the row', () => {
    const json = lane(SLOT3_SPAN);
    json.result.encryption.found = [];
    const row = rowOf(json);
    expect(row.existingEncryption).toBe('/dev/vda1: luks2 aes-xts-plain64 512-bit pbkdf2');
    const changed = lane(SLOT3_SPAN);
    changed.result.storage.partitions[0].encryption.keyBits = 256;
    changed.result.storage.layers[0].encryption.keyBits = 256;
    expect(rowOf(changed).encryptionMethod).toBe('xts-aes-128');
  });

  it('a document without the model (before assessment 1.3) gets the row its sections give the model', () => {
    const withModel = rowOf(lane(STACKS));
    const withoutModel = lane(STACKS);
    delete withoutModel.result.storage;
    // The same row, but for what only the model holds: the other disks a volume group spans (sysfs slaves/),
    // unknown from the sections, never "this disk only"; and the model made now says why the space discards could
    // give back is unknown (the lane's disk is not NVMe), which the committed model (before 1.8) did not.
    const rebuilt = rowOf(withoutModel);
    expect(rebuilt).toEqual({
      ...withModel,
      spansDisks: null,
      otherDisks: null,
      issueDetails: rebuilt.issueDetails,
    });
    const reason =
      '; what the drive could get back is unknown: The drive is not NVMe or nvme-cli did not answer: only an NVMe namespace reports how much of it is allocated (Identify Namespace NUSE).';
    expect(rebuilt.issueDetails).toContain(reason);
    expect(rebuilt.issueDetails.replace(reason, '')).toBe(withModel.issueDetails);
  });

  it('a document whose Linux sections do not validate and that has no model is not assessed, with why', () => {
    const json = lane(STACKS);
    delete json.result.storage;
    json.result.stack = { name: 'vda' };
    expect(rowOf(json)).toMatchObject({
      readiness: 'not-assessed',
      errorCode: 'DOCUMENT_INVALID',
      errorMessage: 'The assessment has neither a storage model nor the Linux sections to make one from.',
    });
  });
});

describe('readiness columns', () => {
  it('key slot layout: the passphrase outside slot 0, the token bound to slot 3 (fleet#46227)', () => {
    const row = rowOf(lane(SLOT3_SPAN));
    expect(row).toMatchObject({
      keySlots: '3:pbkdf2+encplan-lane',
      keySlotsBeyondZero: true,
      passphraseOutsideSlot0: true,
      // A token of a type that says nothing about a TPM: unknown.
      tpmProtector: null,
    });
  });

  it('TPM: a systemd-tpm2 token is a TPM, a FIDO2 token alone is not, a LUKS2 header without tokens has none', () => {
    const withToken = (type: string) => {
      const json = lane(SLOT3_SPAN);
      for (const state of [
        json.result.storage.partitions[0].encryption,
        json.result.storage.layers[0].encryption,
      ]) {
        state.keySlots[0].tokens = [type];
      }
      return rowOf(json);
    };
    expect(withToken('systemd-tpm2')).toMatchObject({
      tpmProtector: true,
      keySlots: '3:pbkdf2+systemd-tpm2',
    });
    expect(withToken('systemd-fido2').tpmProtector).toBe(false);
    // The stacks disk without its TCRYPT volume: three LUKS2 headers read with their (no) tokens.
    const json = lane(STACKS);
    json.result.storage.layers = json.result.storage.layers.filter(
      (layer: Doc) => layer.id !== '/dev/mapper/lane-tcrypt',
    );
    expect(rowOf(json).tpmProtector).toBe(false);
  });

  it('disks spanned: a volume group over this disk and another names the other one (fleet#47256)', () => {
    expect(rowOf(lane(SLOT3_SPAN))).toMatchObject({ spansDisks: true, otherDisks: '/dev/loop0' });
    // sysfs slaves/ not read: unknown, never "one disk".
    const json = lane(SLOT3_SPAN);
    json.result.storage.layers[1].otherDisks = null;
    expect(rowOf(json)).toMatchObject({ spansDisks: null, otherDisks: null });
  });

  it('space to reclaim where discards stop: NVMe utilisation against what the filesystems use, else unknown', () => {
    const unknown = rowOf(lane(SLOT3_SPAN));
    expect(unknown).toMatchObject({ discardsStopAt: '/dev/mapper/lane-slot3', reclaimableBytes: null });
    const json = lane(SLOT3_SPAN);
    Object.assign(json.result.storage.reclaim, {
      driveUsedBytes: 100_663_296,
      filesystemsUsedBytes: 33_554_432,
      reclaimableBytes: 67_108_864,
    });
    const known = rowOf(json);
    expect(known.reclaimableBytes).toBe(67_108_864);
    expect(known.issueDetails).toContain('the drive could get back 64.0 MiB once they pass');
    // Unknown with the model's reason (assessment 1.8): the detail says why.
    const said = lane(SLOT3_SPAN);
    said.result.storage.reclaim.unknownReason =
      'The drive reports its whole namespace as allocated (NUSE = NSZE).';
    expect(rowOf(said)).toMatchObject({ reclaimableBytes: null });
    expect(rowOf(said).issueDetails).toContain(
      'what the drive could get back is unknown: The drive reports its whole namespace as allocated (NUSE = NSZE).',
    );
    expect(unknown.issueDetails).not.toContain('what the drive could get back');
  });

  it('protection off during a conversion, suspended when fully encrypted, and the conversion state', async () => {
    const off = await bundleRow('windows-de-win10-bitlocker-3pct-protection-off');
    expect(off).toMatchObject({
      protection: 'off',
      protectionOff: true,
      conversion: 'encrypting',
      conversionInProgress: true,
      percentEncrypted: 3.5,
      tpmProtector: true,
    });
    const suspended = await bundleRow('windows-win11-bc901-bitlocker-xtsaes128', (json) => {
      json.result.storage.volumes[0].encryption.protection = 'suspended';
    });
    expect(suspended).toMatchObject({ protection: 'suspended', protectionOff: true, readiness: 'fix-first' });
    expect(renderFleetText({ ...buildFleetReport([]), rows: [suspended] })).toContain('protection suspended');
  });

  it('method mismatch with the policy on Linux: a 512-bit aes-xts LUKS2 is XTS-AES-256', () => {
    const row = rowOf(lane(STACKS), { methods: ['xts-aes-128'] });
    expect(row).toMatchObject({ methodMismatch: true });
    expect(row.issueDetails).toContain('Encrypted with xts-aes-256; the policy requires xts-aes-128.');
    expect(rowOf(lane(STACKS), { methods: ['xts-aes-256'] }).methodMismatch).toBe(false);
  });

  it('TPM and escrow unknown where not measurable: a disk whose volumes no tool read', async () => {
    const runner = await bundleRow('windows-github-runner-virtual-disks');
    expect(runner).toMatchObject({
      protection: 'unknown',
      tpmProtector: null,
      recoveryKeyEscrowed: null,
      spansDisks: null,
      passphraseOutsideSlot0: null,
    });
  });
});

describe('every column from the model, on every platform', () => {
  it('spare area: Linux reads its over-provisioning analysis, macOS and Windows say not measurable, never null', async () => {
    expect(rowOf(lane(STACKS)).spareAreaStatus).not.toBe('not-measurable');
    const windows = await bundleRow('windows-win11-bc901-bitlocker-xtsaes128');
    const mac = await bundleRow('darwin-intel-catalina-filevault-disk1s5');
    expect([windows.spareAreaStatus, mac.spareAreaStatus]).toEqual(['not-measurable', 'not-measurable']);
    expect([windows.noSpareArea, mac.noSpareArea]).toEqual([false, false]);
  });

  it('Windows that sends no TRIM to an SSD (DisableDeleteNotify 1): discards stop at Windows, with the fsutil fix', async () => {
    const row = await bundleRow('windows-win11-bc901-bitlocker-xtsaes128', (json) => {
      Object.assign(json.result.storage.disk, { medium: 'ssd' });
      Object.assign(json.result.storage.disk.trim, { osSends: false, source: 'fsutil' });
    });
    expect(row).toMatchObject({
      discardsBlocked: true,
      discardsStopAt: 'Windows (DisableDeleteNotify = 1)',
    });
    expect(row.issueDetails).toContain('fix: fsutil behavior set DisableDeleteNotify 0');
    const sends = await bundleRow('windows-win11-bc901-bitlocker-xtsaes128', (json) => {
      Object.assign(json.result.storage.disk, { medium: 'ssd' });
      Object.assign(json.result.storage.disk.trim, { osSends: true, source: 'fsutil' });
    });
    expect(sends).toMatchObject({ discardsBlocked: false, discardsStopAt: null });
  });

  it('a weaker LUKS keyslot is read from the model: a PBKDF2 slot there is flagged without the Linux inventory', () => {
    const json = lane(SLOT3_SPAN);
    json.result.encryption.found = [];
    // The plan derives with argon2id; the model's keyslot 3 is PBKDF2.
    expect(json.result.plan.settings.luks2Pbkdf.kdf).toBe('argon2id');
    const row = rowOf(json);
    expect(row.encryptedWeaker).toBe(true);
    expect(row.issueDetails).toContain('keyslot 3 uses PBKDF2, the plan argon2id');
  });

  it('macOS: a volume encrypted at rest without FileVault is protection off, said with fdesetup; a VM volume is no data', async () => {
    const off = await bundleRow('darwin-intel-catalina-filevault-disk1s5', (json) => {
      Object.assign(json.result.storage.volumes[0].encryption, { kind: 'apfs', protection: 'off' });
    });
    expect(off).toMatchObject({ protectionOff: true, protectionOn: false, readiness: 'fix-first' });
    expect(off.issueDetails).toContain('fdesetup enable');
    expect(off.issueDetails).not.toContain('manage-bde');
    const vm = await bundleRow('darwin-intel-catalina-filevault-disk1s5', (json) => {
      const [volume] = json.result.storage.volumes;
      json.result.storage.volumes.push({
        ...volume,
        id: 'disk1s4',
        label: 'VM',
        roles: ['VM'],
        encryption: { ...volume.encryption, kind: 'apfs', protection: 'off' },
      });
    });
    expect(vm).toMatchObject({ protectionOff: false, protectionOn: true, protection: 'on' });
  });
});

describe('the readiness columns in every output', () => {
  const report = buildFleetReport([
    { source: 'lane/span.json', machine: 'span', json: lane(SLOT3_SPAN) },
    { source: 'lane/stacks.json', machine: 'stacks', json: lane(STACKS) },
  ]);

  it('text: slot 0, TPM unknown, the disks spanned and the space to reclaim said as unknown', () => {
    const text = renderFleetText(report);
    expect(text).toContain(
      'encrypted: /dev/vda1: luks2 aes-xts-plain64 512-bit pbkdf2 (xts-aes-256, protection on, key slots 3:pbkdf2+encplan-lane, passphrase outside slot 0, TPM unknown)',
    );
    expect(text).toContain(
      'storage: spans /dev/loop0 too (a volume group or array over several disks); discards stop at /dev/mapper/lane-slot3; space the drive could get back: unknown',
    );
  });

  it('text reads as words: layers joined with a comma, one command in the singular, no "C::"', async () => {
    const text = renderFleetText(report);
    expect(text).toContain(
      'discards stop at /dev/mapper/lane-nodiscards, /dev/mapper/lane-luks-in-lvm; space the drive could get back',
    );
    expect(text).toContain('1 command ');
    expect(text).not.toContain('1 commands');
    const documents: FleetDocument[] = [];
    for await (const document of await readFleetDocuments(
      [path.join(FIXTURES, 'bundles', 'windows-win11-bc901-bitlocker-xtsaes128')],
      { now: () => new Date('2026-11-26T12:00:00.000Z') },
    )) {
      documents.push(document);
    }
    const windows = renderFleetText(buildFleetReport(documents));
    expect(windows).toContain('encrypted: C: bitlocker');
    expect(windows).not.toContain('C::');
  });

  it('CSV: the new columns after the 1.1 ones, unknown as an empty cell', () => {
    const lines = renderFleetCsv(report).split('\r\n');
    // The 1.2 columns, then fleet-report 1.4's fileLevelEncryption (fleet-file-level.test.ts).
    expect(fleetCsvColumns().slice(-8, -1)).toEqual([
      'protection',
      'conversion',
      'passphraseOutsideSlot0',
      'spansDisks',
      'otherDisks',
      'discardsStopAt',
      'reclaimableBytes',
    ]);
    expect(lines[1]).toMatch(/,no-volumes,,true,true,\/dev\/loop0,\/dev\/mapper\/lane-slot3,,$/);
  });

  it('HTML: the columns, unknown as —, in the disk report’s light, dark and print styles', () => {
    const html = renderFleetHtml(report, '2026-11-26T00:00:00.000Z', renderChart);
    expect(html).toContain('<th>passphrase outside slot 0</th><th>TPM</th><th>escrow</th><th>layers</th>');
    expect(html).toContain(
      '<td class="id">3:pbkdf2+encplan-lane</td><td>yes</td><td>—</td><td>—</td><td class="id">spans /dev/loop0 too (a volume group or array over several disks); discards stop at /dev/mapper/lane-slot3; space the drive could get back: unknown</td>',
    );
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('@media print');
  });
});

/*
 * osquery#8402: osquery's disk_encryption calls a LUKS2 HW-OPAL volume "not encrypted". The kernel lane's real
 * assessment with its vda1 header replaced by one made with cryptsetup 2.7 --hw-opal or --hw-opal-only (fixtures
 * written from cryptsetup v2.7.0's source: no capture exists, see their PROVENANCE), the model rebuilt from it.
 */
describe('LUKS2 on OPAL in the fleet row (osquery#8402)', () => {
  const opalLane = (name: string): Doc => {
    const json = lane(SLOT3_SPAN);
    json.result.encryption.found = [
      {
        ...parseLuks2JsonMetadata(fixture(`cryptsetup-luksdump/${name}/stdout`)),
        path: '/dev/vda1',
        source: 'cryptsetup luksDump --dump-json-metadata',
      },
    ];
    delete json.result.storage;
    json.result.storage = storageModelOf(json.result as Parameters<typeof storageModelOf>[0]);
    return json;
  };
  const crypt = opalLane('json-luks2-hw-opal-crypt-constructed-v2.7');
  const only = opalLane('json-luks2-hw-opal-only-constructed-v2.7');

  it('--hw-opal: "LUKS2 + OPAL", dm-crypt’s method on top, so a software-encryption policy is met', () => {
    const row = rowOf(crypt, { methods: ['xts-aes-256'] });
    expect(row.existingEncryption).toBe('/dev/vda1: LUKS2 + OPAL aes-xts-plain64 512-bit argon2id');
    expect(row).toMatchObject({ encryptionMethod: 'xts-aes-256', methodMismatch: false, protectionOn: true });
  });

  it('--hw-opal-only: "OPAL only (hardware)", method hardware, a mismatch where the policy wants software encryption', () => {
    const row = rowOf(only, { methods: ['xts-aes-256'] });
    expect(row.existingEncryption).toBe('/dev/vda1: OPAL only (hardware) argon2id');
    expect(row).toMatchObject({ encryptionMethod: 'hardware', methodMismatch: true });
    expect(row.issueDetails).toContain('Encrypted with hardware; the policy requires xts-aes-256.');
  });

  it('text, CSV, JSON and HTML say it', () => {
    const report = buildFleetReport(
      [
        { source: 'lane/opal.json', machine: 'opal', json: crypt },
        { source: 'lane/opal-only.json', machine: 'opal-only', json: only },
      ],
      { methods: ['xts-aes-256'] },
    );
    const text = renderFleetText(report);
    expect(text).toContain(
      'encrypted: /dev/vda1: LUKS2 + OPAL aes-xts-plain64 512-bit argon2id (xts-aes-256',
    );
    expect(text).toContain('encrypted: /dev/vda1: OPAL only (hardware) argon2id (hardware');
    const csv = renderFleetCsv(report);
    expect(csv).toContain('/dev/vda1: OPAL only (hardware) argon2id');
    expect(JSON.stringify(report.rows)).toContain('"encryptionMethod":"hardware"');
    const html = renderFleetHtml(report, '2026-11-26T00:00:00.000Z', renderChart);
    expect(html).toContain('/dev/vda1: OPAL only (hardware) argon2id');
    expect(html).toContain('/dev/vda1: LUKS2 + OPAL aes-xts-plain64 512-bit argon2id');
  });
});
