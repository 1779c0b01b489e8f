import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linuxStorageModel } from '../../src/analyses/storage-model.js';
import type { FleetRow } from '../../src/domain/fleet-report.js';
import type { FileEncryption, StorageLayer, StorageModel } from '../../src/domain/storage-model.js';
import { fleetCsvColumns, renderFleetCsv } from '../../src/fleet/fleet-csv.js';
import { renderFleetHtml } from '../../src/fleet/fleet-html.js';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { renderFleetText } from '../../src/fleet/fleet-text.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';
import { readFleetDocuments } from '../../src/node/fleet-documents.js';
import type { Host } from '../../src/ports.js';
import { probeFileEncryption } from '../../src/probes/linux/file-encryption.js';
import { createProbeContext } from '../../src/probes/probe-context.js';
import { refusedEffects } from '../../../../tests/support/directory-host.js';
import { fixture, FIXTURES } from '../support/fixtures.js';

/*
 * Issue 26 item 4: an fscrypt or eCryptfs home is a file-level layer, not full-disk encryption (Kolide misses
 * eCryptfs: kolide/launcher#1964). The fleet report names it in `fileLevelEncryption` and never counts such a disk
 * as encrypted: not in the summary's alreadyEncrypted, not in the encryption method a policy is checked against.
 * The fscrypt disk is a real capture (fixtures/bundles/loop-ext4-fscrypt-home-debian12/PROVENANCE.md: `encplan collect` and `assess
 * --json` of a loop disk whose /home/alice `fscrypt encrypt` made); the eCryptfs home is the real /proc/mounts
 * line of a Linux Mint machine (fixtures/proc/PROVENANCE.md).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke single fields of a real document
type Doc = Record<string, any>;

const renderChart = await loadChartRenderer();
const FSCRYPT = 'loop-ext4-fscrypt-home-debian12';

async function bundleDocument(name: string): Promise<FleetDocument> {
  const documents: FleetDocument[] = [];
  for await (const document of await readFleetDocuments([path.join(FIXTURES, 'bundles', name)], {
    now: () => new Date('2026-11-27T03:30:00.000Z'),
  })) {
    documents.push(document);
  }
  expect(documents).toHaveLength(1);
  return documents[0] as FleetDocument;
}

/** The storage model a Linux assessment's own sections give, with these file-encryption folders. */
function modelOfSections(result: Doc, fileEncryption: readonly FileEncryption[]): StorageModel {
  return linuxStorageModel({
    disk: result.disk,
    media: result.media,
    partitions: result.partitions,
    stack: result.stack,
    encryption: result.encryption,
    space: result.space,
    discardPassthrough: result.discardPassthrough,
    overProvisioning: result.overProvisioning,
    fileEncryption,
  });
}

const onlyRow = (rows: readonly FleetRow[]): FleetRow => {
  expect(rows).toHaveLength(1);
  return rows[0] as FleetRow;
};

describe('file-level encryption in the fleet report (issue 26 item 4)', () => {
  it('names the fscrypt home of the real loop disk, and does not count the disk as encrypted', async () => {
    const report = buildFleetReport([await bundleDocument(FSCRYPT)]);
    const row = onlyRow(report.rows);
    expect(row).toMatchObject({
      platform: 'linux',
      fileLevelEncryption: 'fscrypt /home/alice',
      existingEncryption: null,
      encryptionMethod: null,
      protection: 'none',
      protectionOn: null,
    });
    expect(row.readiness).not.toBe('already-encrypted');
    expect(report.summary).toMatchObject({ alreadyEncrypted: 0, fileLevelOnly: 1 });
    // The `assess --json` document of the same disk, saved as written, gives the same row.
    const saved = buildFleetReport([
      {
        source: 'fetched/laptop/loop65.json',
        machine: 'laptop',
        json: JSON.parse(fixture(`assessments-file-level/${FSCRYPT}.json`)) as unknown,
      },
    ]);
    expect(onlyRow(saved.rows)).toMatchObject({
      fileLevelEncryption: 'fscrypt /home/alice',
      existingEncryption: null,
    });
    expect(saved.summary.fileLevelOnly).toBe(1);
  });

  it("is no method a policy checks: fscrypt's AES-256-XTS does not satisfy, nor break, --require-method", async () => {
    const report = buildFleetReport([await bundleDocument(FSCRYPT)], { methods: ['xts-aes-256'] });
    const row = onlyRow(report.rows);
    expect(row).toMatchObject({ methodMismatch: false, encryptionMethod: null });
    expect(row.issues).not.toContain('method-mismatch');
    expect(report.summary.alreadyEncrypted).toBe(0);
  });

  it('says it in the text, the CSV (last column) and the HTML', async () => {
    const report = buildFleetReport([await bundleDocument(FSCRYPT)]);
    const text = renderFleetText(report);
    expect(text).toContain('1 disk is encrypted only folder by folder (fscrypt, eCryptfs homes)');
    expect(text).toContain('so it is not counted as encrypted');
    expect(text).toMatch(/^1 document, 1 machine, 1 disk: /);
    expect(text).toContain('file-level only, not full-disk: fscrypt /home/alice');
    expect(fleetCsvColumns().at(-1)).toBe('fileLevelEncryption');
    const [header, line] = renderFleetCsv(report).split('\r\n');
    expect(header?.split(',').at(-1)).toBe('fileLevelEncryption');
    expect(line?.split(',').at(-1)).toBe('fscrypt /home/alice');
    const html = renderFleetHtml(report, '2026-11-27T03:30:00.000Z', renderChart);
    expect(html).toContain('<div class="id">file-level only, not full-disk: fscrypt /home/alice</div>');
    expect(html).toContain('1 disk is encrypted only folder by folder');
    expect(html).toContain('1 disk (1 Linux, 0 macOS, 0 Windows) of 1 machine from 1 document,');
  });

  it('names the eCryptfs home of the real Mint mount table, on the real loop disk mounted at /home', async () => {
    // The real /proc/mounts of a machine with an eCryptfs /home/hsimpson, asked about a disk whose filesystem
    // holds /home: the fscrypt capture's loop disk, its model rebuilt from its own sections with that mount table.
    const mounts = fixture('proc/mounts-mint-lvm-root-ecryptfs-home-linuxpy.txt');
    const host = {
      platform: 'linux',
      privileged: true,
      cwd: '/',
      effects: refusedEffects('the probe only reads'),
      run: () => Promise.reject(new Error('nothing is run')),
      readText: (file: string) => Promise.resolve(file === '/proc/self/mounts' ? mounts : null),
      listDir: () => Promise.resolve(null),
      realPath: (file: string) => Promise.resolve(file),
      stat: () => Promise.resolve(null),
      whichTool: () => Promise.resolve(null),
      systemInfo: () => Promise.reject(new Error('unused')),
    } satisfies Host;
    const found = await probeFileEncryption(createProbeContext(host), ['/home']);
    const document = JSON.parse(fixture(`assessments-file-level/${FSCRYPT}.json`)) as Doc;
    const result = document.result as Doc;
    result.storage = modelOfSections(result, found);
    const report = buildFleetReport([{ source: 'mint/loop65.json', machine: 'mint', json: document }]);
    expect(onlyRow(report.rows)).toMatchObject({
      fileLevelEncryption: 'eCryptfs /home/hsimpson',
      existingEncryption: null,
    });
    expect(report.summary).toMatchObject({ alreadyEncrypted: 0, fileLevelOnly: 1 });
  });

  it('beside a full-disk encryption: named as "also", the disk counted as encrypted, not as file-level only', () => {
    const document = JSON.parse(fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json')) as Doc;
    const plain = buildFleetReport([{ source: 'a/loop2.json', machine: 'a', json: document }]);
    const base = onlyRow(plain.rows);
    expect(base.existingEncryption).not.toBeNull();
    expect(base.fileLevelEncryption).toBeNull();
    // The LUKS disk's ext4 partition also holds an fscrypt home (the fscrypt capture's layer, moved onto it).
    const layer = (
      JSON.parse(fixture(`assessments-file-level/${FSCRYPT}.json`)) as Doc
    ).result.storage.layers.find((entry: Doc) => entry.kind === 'file-encryption') as Doc;
    const model = modelOfSections(document.result as Doc, []);
    const volume = model.volumes.find((entry) => entry.filesystem === 'ext4');
    model.layers.push({ ...(layer as StorageLayer), on: [volume?.id ?? ''] });
    (document.result as Doc).storage = model;
    const report = buildFleetReport([{ source: 'a/loop2.json', machine: 'a', json: document }]);
    const row = onlyRow(report.rows);
    expect(row).toMatchObject({
      fileLevelEncryption: 'fscrypt /home/alice',
      existingEncryption: base.existingEncryption,
      readiness: base.readiness,
    });
    expect(report.summary.fileLevelOnly).toBe(0);
    expect(renderFleetText(report)).toContain('also file-level: fscrypt /home/alice');
  });
});
