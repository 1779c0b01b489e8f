import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentDocument, fleetReportDocument } from '@encplan/core';
import type { FleetRow } from '../../src/domain/fleet-report.js';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { readFleetDocuments } from '../../src/node/fleet-documents.js';
import { fixture, FIXTURES } from '../support/fixtures.js';

/*
 * The fleet report for every OS (issue 26 item 5): the committed macOS and Windows bundles (replayed by the
 * reader, as `encplan fleet report BUNDLE` does), `assess --all` machine documents and `collect --all` bundles,
 * repeated disks, and the readiness columns.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke single fields of a real document
type Doc = Record<string, any>;

const fixedClock = () => ({ now: () => new Date('2026-11-26T12:00:00.000Z') });
const LOOP = 'loop-gpt-ext4-luks2-unallocated-debian12';
const bundleDir = (name: string) => path.join(FIXTURES, 'bundles', name);
const assessment = (name: string): Doc => JSON.parse(fixture(`assessments/${name}.json`)) as Doc;

/** The documents the reader makes of some committed bundles (each replayed once for the whole file). */
const replayed = new Map<string, FleetDocument>();
async function bundleDocument(name: string): Promise<FleetDocument & { json: Doc }> {
  let document = replayed.get(name);
  if (document === undefined) {
    for await (const read of await readFleetDocuments([bundleDir(name)], fixedClock())) {
      document = read;
    }
    replayed.set(name, document as FleetDocument);
  }
  expect(document).toHaveProperty('json');
  return structuredClone(document) as FleetDocument & { json: Doc };
}

const rowOf = (report: { rows: readonly FleetRow[] }, machine: string, disk?: string) =>
  report.rows.find((row) => row.machine === machine && (disk === undefined || row.disk === disk));

describe('the fleet report on macOS and Windows assessments', () => {
  it('reports a BitLocker disk under conversion with its method, protection and progress', async () => {
    const report = buildFleetReport([await bundleDocument('windows-de-win10-bitlocker-in-progress')]);
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject({
      platform: 'win32',
      documentStatus: 'valid',
      readiness: 'already-encrypted',
      encryptionMethod: 'xts-aes-128',
      protectionOn: true,
      conversionInProgress: true,
      percentEncrypted: 100,
      methodMismatch: false,
      // manage-bde -status lists its key protectors (TPM): measured, from the storage model's key slots.
      tpmProtector: true,
      recoveryKeyEscrowed: null,
      keySlots: null,
    });
    expect(report.summary.platforms).toEqual({ linux: 0, darwin: 0, win32: 1 });
  });

  it('says a used-space-only BitLocker volume is not converting, and flags a method the policy does not allow', async () => {
    const document = await bundleDocument('windows-win11-bc901-bitlocker-xtsaes128');
    const free = buildFleetReport([document]);
    expect(free.rows[0]).toMatchObject({ conversionInProgress: false, readiness: 'already-encrypted' });
    const strict = buildFleetReport([document], { methods: ['xts-aes-256'] });
    expect(strict.rows[0]).toMatchObject({
      readiness: 'fix-first',
      methodMismatch: true,
      issues: 'method-mismatch',
    });
    expect(strict.rows[0]?.issueDetails).toContain('xts-aes-128; the policy requires xts-aes-256');
    expect(strict.policy).toEqual({ methods: ['xts-aes-256'] });
    expect(buildFleetReport([document], { methods: ['xts-aes-128', 'xts-aes-256'] }).rows[0]).toMatchObject({
      methodMismatch: false,
    });
  });

  it('flags protection off (BitLocker suspended) as fix-first', async () => {
    const document = await bundleDocument('windows-win11-bc901-bitlocker-xtsaes128');
    document.json.result.storage.volumes[0].encryption.protection = 'suspended';
    expect(buildFleetReport([document]).rows[0]).toMatchObject({
      readiness: 'fix-first',
      protectionOff: true,
      protectionOn: false,
      issues: 'protection-off',
    });
  });

  it('flags protection off on the real bundle (German Windows 10, 3.5 % encrypted, protection off) in words', async () => {
    const report = buildFleetReport([await bundleDocument('windows-de-win10-bitlocker-3pct-protection-off')]);
    expect(report.rows[0]).toMatchObject({
      readiness: 'fix-first',
      protectionOff: true,
      protection: 'off',
      conversion: 'encrypting',
      percentEncrypted: 3.5,
      issueDetails:
        'C: has protection off: the key is stored in the clear until it is resumed (manage-bde -protectors -enable).',
    });
    // A Windows volume's name ends with a colon: never "C:: the key".
    expect(report.rows[0]?.issueDetails).not.toContain('C::');
  });

  it('reads an assessment 1.3 document through its deprecated platformStorage, as the 1.4 one of the same bundle', async () => {
    const name = 'windows-win11-bc901-bitlocker-xtsaes128';
    const saved = {
      source: `${name}.json`,
      machine: name,
      json: JSON.parse(fixture(`assessments-1.3/${name}-assessment-1.3.json`)) as Doc,
    };
    const fresh = await bundleDocument(name);
    // Every column but where the document came from and when and in which version it was written.
    const columns = (row: FleetRow | undefined) =>
      Object.fromEntries(
        Object.entries(row ?? {}).filter(
          ([key]) => !['source', 'schemaVersion', 'generatedAt'].includes(key),
        ),
      );
    expect(columns(buildFleetReport([saved]).rows[0])).toEqual(columns(buildFleetReport([fresh]).rows[0]));
    // Only the model builder reads platformStorage, and it reads the whole of it: a suspended volume there is a
    // suspended volume in the row.
    saved.json.result.platformStorage.encryption[0].protectionOn = false;
    expect(buildFleetReport([saved]).rows[0]).toMatchObject({ protectionOff: true, protectionOn: false });
  });

  it('reports FileVault as already encrypted and an unreadable encryption state as unknown, never as "not encrypted"', async () => {
    const report = buildFleetReport([
      await bundleDocument('darwin-intel-catalina-filevault-disk1s5'),
      await bundleDocument('darwin-apple-silicon-ap0256z-system-profiler'),
    ]);
    expect(rowOf(report, 'darwin-intel-catalina-filevault-disk1s5')).toMatchObject({
      platform: 'darwin',
      readiness: 'already-encrypted',
      protectionOn: true,
      // diskutil did not say which method: unknown, not guessed from what FileVault usually uses.
      encryptionMethod: null,
    });
    expect(rowOf(report, 'darwin-apple-silicon-ap0256z-system-profiler')).toMatchObject({
      platform: 'darwin',
      readiness: 'fix-first',
      encryptionUnknown: true,
      existingEncryption: null,
      protectionOn: null,
      model: 'APPLE SSD AP0256Z',
      cpuHasAes: true,
    });
    expect(report.summary.platforms).toEqual({ linux: 0, darwin: 2, win32: 0 });
  });

  it('gives a failing platform drive the drive-failing issue', async () => {
    const document = await bundleDocument('darwin-intel-catalina-filevault-disk1s5');
    document.json.result.storage.disk.health.verdict = 'failing';
    expect(buildFleetReport([document]).rows[0]).toMatchObject({
      driveFailing: true,
      readiness: 'fix-first',
    });
  });
});

describe('machine documents, local facts and repeated disks', () => {
  it('reports a collect --all bundle one row per disk, a failed disk as not assessed with its error', async () => {
    const document = await bundleDocument('machine-all-loops-and-virtio-node-missing-debian12');
    expect(document.json.schema).toBe('encplan.machine-assessment');
    const report = buildFleetReport([document]);
    expect(report.rows.map((row) => row.disk).sort()).toEqual([
      '/dev/loop0',
      '/dev/loop1',
      '/dev/loop2',
      '/dev/vda',
    ]);
    expect(report.summary).toMatchObject({
      documents: 1,
      machines: 1,
      disks: 4,
      notAssessed: 1,
      unusable: 0,
    });
    expect(rowOf(report, 'machine-all-loops-and-virtio-node-missing-debian12', '/dev/loop2')).toMatchObject({
      readiness: 'not-assessed',
      errorCode: 'DEVICE_NOT_FOUND',
      assessmentStatus: 'error',
    });
    expect(report.versions).toEqual([
      expect.objectContaining({
        schema: 'encplan.machine-assessment',
        schemaVersion: '1.7',
        supported: true,
      }),
    ]);
  });

  it('flags once a disk that an assess --all document and a single assessment of the same machine both list', async () => {
    const machine = await bundleDocument('machine-all-loops-and-virtio-node-missing-debian12');
    const vda = (machine.json.result.disks as Doc[]).find((disk) => disk.device === '/dev/vda');
    // The single `encplan assess /dev/vda --json` of that machine: the same assessment in its own envelope.
    const single = assessmentDocument.ok(
      vda?.assessment,
      vda?.warnings,
      new Date('2026-11-26T12:00:00.000Z'),
    );
    const report = buildFleetReport([
      { source: 'host1/machine.json', machine: 'host1', json: machine.json },
      { source: 'host1/vda.json', machine: 'host1', json: single },
    ]);
    expect(report.summary).toMatchObject({ documents: 2, machines: 1, disks: 4, duplicateDisks: 1 });
    expect(
      report.rows
        .filter((row) => row.duplicateOf !== null)
        .map((row) => [row.source, row.disk, row.duplicateOf]),
    ).toEqual([['host1/vda.json', '/dev/vda', 'host1/machine.json']]);
  });

  it('reads an Ansible local fact ({"assessments": [...]}) as one row per assessment', () => {
    const fact = { assessments: [assessment(LOOP), assessment('virtio-system-disk-whole-ext4-debian12')] };
    const report = buildFleetReport([{ source: 'h1/encplan.fact', machine: 'h1', json: fact }]);
    expect(report.rows.map((row) => row.disk).sort()).toEqual(['/dev/loop2', '/dev/vda']);
    expect(report.summary).toMatchObject({ documents: 1, disks: 2, unusable: 0 });
  });

  it('flags a disk of one machine listed three times once, and counts it once', () => {
    const documents: FleetDocument[] = [
      { source: 'web1/loop2.json', machine: 'web1', json: assessment(LOOP) },
      { source: 'web1/encplan.fact', machine: 'web1', json: { assessments: [assessment(LOOP)] } },
      { source: 'web1/again.json', machine: 'web1', json: assessment(LOOP) },
      // The same disk name on another machine is another disk.
      { source: 'web2/loop2.json', machine: 'web2', json: assessment(LOOP) },
    ];
    const report = buildFleetReport(documents);
    expect(report.summary).toMatchObject({ documents: 4, machines: 2, disks: 2, duplicateDisks: 1 });
    const repeats = report.rows.filter((row) => row.duplicateOf !== null);
    expect(repeats.map((row) => [row.source, row.duplicateOf])).toEqual([
      ['web1/encplan.fact', 'web1/loop2.json'],
      ['web1/again.json', 'web1/loop2.json'],
    ]);
    const counted = report.summary.fixFirst + report.summary.alreadyEncrypted + report.summary.ready;
    expect(counted).toBe(2);
  });

  it('shows the LUKS key slot layout and whether a slot other than 0 is used', () => {
    const document = assessment(LOOP);
    const report = buildFleetReport([{ source: 'a.json', machine: 'a', json: document }]);
    expect(report.rows[0]).toMatchObject({
      platform: 'linux',
      encryptionMethod: 'xts-aes-256',
      keySlots: '0:pbkdf2',
      keySlotsBeyondZero: false,
      // A LUKS header protects its volume (no off or suspended state exists for LUKS): the model says on.
      protectionOn: true,
      conversionInProgress: null,
      // An assessment 1.0 read no LUKS2 tokens: whether a TPM or a token holds slot 0 is unknown.
      tpmProtector: null,
      passphraseOutsideSlot0: null,
    });
    document.result.encryption.found[0].pbkdf.push({
      ...document.result.encryption.found[0].pbkdf[0],
      keyslot: '3',
      type: 'argon2id',
    });
    expect(buildFleetReport([{ source: 'a.json', machine: 'a', json: document }]).rows[0]).toMatchObject({
      keySlots: '0:pbkdf2 3:argon2id',
      keySlotsBeyondZero: true,
    });
  });

  it('builds a report over every kind that validates as the fleet envelope', async () => {
    const report = buildFleetReport([
      await bundleDocument('windows-de-win10-bitlocker-in-progress'),
      await bundleDocument('darwin-apple-silicon-ap0256z-system-profiler'),
      await bundleDocument('machine-all-loops-and-virtio-node-missing-debian12'),
    ]);
    expect(fleetReportDocument.envelope.parse(fleetReportDocument.ok(report)).result?.rows).toHaveLength(6);
  });
});

describe('readFleetDocuments', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-fleet-read-'));
  beforeAll(() => {
    for (const machine of ['b', 'a', 'c']) {
      mkdirSync(path.join(scratch, machine));
      writeFileSync(path.join(scratch, machine, 'disk.json'), '{}');
    }
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('yields the documents one at a time, in name order, and checks every PATH before the first', async () => {
    const documents = await readFleetDocuments([scratch], fixedClock());
    const first = await documents.next();
    expect(first.value).toMatchObject({ machine: 'a' });
    const rest = [];
    for await (const document of documents) {
      rest.push(document.machine);
    }
    expect(rest).toEqual(['b', 'c']);
    await expect(readFleetDocuments([scratch, path.join(scratch, 'nope')], fixedClock())).rejects.toThrow(
      /does not exist/,
    );
  });
});
