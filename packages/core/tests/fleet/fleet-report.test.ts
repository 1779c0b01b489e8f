import { describe, expect, it } from 'vitest';
import { fleetReportDocument, TOOL_VERSION } from '@encplan/core';
import { okEnvelope } from '../../src/contract/envelope.js';
import { fleetCsvColumns, renderFleetCsv } from '../../src/fleet/fleet-csv.js';
import { renderFleetHtml } from '../../src/fleet/fleet-html.js';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { fixture } from '../support/fixtures.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

/** An assessment as loose JSON, so each test can change one fact. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke single fields of a real document
type Doc = Record<string, any>;

/** A real assessment (fixtures/assessments), as JSON we may adjust per test: rule-style hand-built domain values. */
function assessment(name: string): Doc {
  return JSON.parse(fixture(`assessments/${name}.json`)) as Doc;
}
const LOOP = 'loop-gpt-ext4-luks2-unallocated-debian12';
const VIRTIO = 'virtio-system-disk-whole-ext4-debian12';

/** The loop assessment with its facts changed to a clean machine: accelerated AES, no existing encryption. */
function cleanLoop(): Doc {
  const document = assessment(LOOP);
  document.result.findings = [];
  document.result.encryption.found = [];
  return document;
}

const doc = (machine: string, json: unknown): FleetDocument => ({ source: `${machine}.json`, machine, json });

describe('buildFleetReport', () => {
  it('reads an assessment-1.0 Linux document through its sections, checking each stack node the model reads', () => {
    const [row] = buildFleetReport([doc('db1', assessment(LOOP))]).rows;
    expect(row).toMatchObject({ schemaVersion: '1.0', platform: 'linux', errorCode: null });
    expect(row?.readiness).not.toBe('not-assessed');
    // Fields of a node the model does not read are not validated (as the sections no row is made of).
    const loose = assessment(LOOP);
    loose.result.stack.children[1].kernelName = 7;
    loose.result.stack.children[1].discard = 'none';
    loose.result.disk.vendor = 7;
    loose.result.discardPassthrough.paths[0].leaks = 'none';
    loose.result.discardPassthrough.paths[0].layers[0].reason = 7;
    expect(buildFleetReport([doc('db1', loose)]).rows[0]).toEqual(row);
    // The disk and discard fields a row or the model reads are validated.
    for (const change of [
      (json: Doc) => (json.result.disk.sizeBytes = 'large'),
      (json: Doc) => (json.result.discardPassthrough.paths[0].topPath = 3),
      (json: Doc) => (json.result.discardPassthrough.paths[0].layers[0].blocksHere = 'yes'),
    ]) {
      const wrong = assessment(LOOP);
      change(wrong);
      expect(buildFleetReport([doc('db1', wrong)]).rows[0]).toMatchObject({ documentStatus: 'invalid' });
    }
    // A field it reads, wrong in a nested node: no model, so the disk is not assessed.
    const broken = assessment(LOOP);
    broken.result.stack.children[1].mountpoints = '/srv';
    expect(buildFleetReport([doc('db1', broken)]).rows[0]).toMatchObject({
      readiness: 'not-assessed',
      errorCode: 'DOCUMENT_INVALID',
    });
  });

  it('counts a clean machine as ready and carries its plan in the row', () => {
    const report = buildFleetReport([doc('web1', cleanLoop())]);
    expect(report.summary).toMatchObject({ documents: 1, machines: 1, ready: 1, fixFirst: 0 });
    const [row] = report.rows;
    expect(row).toMatchObject({
      machine: 'web1',
      disk: '/dev/loop2',
      readiness: 'ready',
      issues: '',
      documentStatus: 'valid',
      planCipher: 'aes-xts-plain64',
      planKeySizeBits: 512,
      planSectorSizeBytes: 4096,
      planAllowDiscards: true,
      planCommands: 4,
    });
    expect(row?.planSummary).toContain('argon2id 1.0 GiB ×2');
  });

  // Each row: the issue, its CSV column, and the part of a clean assessment to change so the issue appears.
  it.each([
    ['drive-failing', 'driveFailing', (d: Doc) => d.result.health as Doc, { verdict: 'failing' }],
    ['drive-worn', 'driveWorn', (d: Doc) => d.result.health as Doc, { percentageUsed: 95 }],
    [
      'aes-unaccelerated',
      'aesUnaccelerated',
      (d: Doc) => d.result as Doc,
      { findings: assessment(LOOP).result.findings },
    ],
    [
      'aes-unaccelerated',
      'aesUnaccelerated',
      (d: Doc) => d.result.machine.cryptoFlags as Doc,
      { aes: false },
    ],
    [
      'discards-blocked',
      'discardsBlocked',
      (d: Doc) => d.result.discardPassthrough.paths[0] as Doc,
      { passesToDisk: false, firstBlockingLayer: 'md0' },
    ],
    ['no-spare-area', 'noSpareArea', (d: Doc) => d.result.overProvisioning as Doc, { status: 'none' }],
    [
      'encrypted-weaker',
      'encryptedWeaker',
      (d: Doc) => d.result.encryption as Doc,
      { found: assessment(LOOP).result.encryption.found },
    ],
  ] as const)('flags %s and puts the disk in fix-first', (issue, column, part, change) => {
    const document = cleanLoop();
    Object.assign(part(document), change);
    const report = buildFleetReport([doc('web1', document), doc('web2', cleanLoop())]);
    const row = report.rows.find((candidate) => candidate.machine === 'web1');
    expect(row).toMatchObject({ readiness: 'fix-first', issues: issue, [column]: true });
    expect(row?.issueDetails).not.toBe('');
    expect(report.issueCounts.find((entry) => entry.issue === issue)?.count).toBe(1);
    expect(report.summary).toMatchObject({ ready: 1, fixFirst: 1 });
    expect(report.rows[0]?.machine).toBe('web1');
  });

  it('calls a LUKS volume as strong as the plan already encrypted, not weaker', () => {
    const document = cleanLoop();
    document.result.encryption.found = [
      {
        ...assessment(LOOP).result.encryption.found[0],
        pbkdf: [
          {
            keyslot: '0',
            type: 'argon2id',
            hash: null,
            iterations: 4,
            timeCost: 4,
            memoryKibibytes: 1048576,
            parallelThreads: 2,
          },
        ],
      },
    ];
    expect(buildFleetReport([doc('db1', document)]).rows[0]).toMatchObject({
      readiness: 'already-encrypted',
      encryptedWeaker: false,
    });
  });

  it('lists a damaged document with its error and still reports the rest', () => {
    const report = buildFleetReport([
      {
        source: 'broken.json',
        machine: 'broken',
        error: { code: 'DOCUMENT_INVALID', message: 'Not valid JSON' },
      },
      doc('truncated', { ...cleanLoop(), result: { plan: null } }),
      doc('web1', cleanLoop()),
    ]);
    expect(report.summary).toMatchObject({ documents: 3, ready: 1, notAssessed: 2, unusable: 2 });
    expect(report.rows.find((row) => row.machine === 'broken')).toMatchObject({
      documentStatus: 'invalid',
      errorCode: 'DOCUMENT_INVALID',
      errorMessage: 'Not valid JSON',
    });
    expect(report.rows.find((row) => row.machine === 'truncated')?.errorMessage).toMatch(
      /^Does not match the encplan.assessment schema/,
    );
  });

  it('reports other schema versions and unknown encplan versions instead of merging them silently', () => {
    const future = { ...cleanLoop(), schemaVersion: [2, 0], toolVersion: '2.0.0' };
    const unknownTool = { ...cleanLoop(), toolVersion: '0.0.9-dev' };
    const report = buildFleetReport([
      doc('a', cleanLoop()),
      doc('b', future),
      doc('c', unknownTool),
      doc('d', { schema: 'encplan.plan', schemaVersion: [1, 0], toolVersion: TOOL_VERSION }),
    ]);
    expect(report.rows.find((row) => row.machine === 'b')).toMatchObject({
      documentStatus: 'unsupported-schema-version',
      readiness: 'not-assessed',
      schemaVersion: '2.0',
      toolVersion: '2.0.0',
    });
    expect(report.rows.find((row) => row.machine === 'c')).toMatchObject({
      documentStatus: 'unknown-tool-version',
      readiness: 'ready',
    });
    expect(report.rows.find((row) => row.machine === 'd')).toMatchObject({
      documentStatus: 'not-an-assessment',
    });
    expect(report.versions).toEqual([
      {
        schema: 'encplan.assessment',
        schemaVersion: '1.0',
        toolVersion: '0.0.9-dev',
        documents: 1,
        supported: false,
      },
      {
        schema: 'encplan.assessment',
        schemaVersion: '1.0',
        toolVersion: TOOL_VERSION,
        documents: 1,
        supported: true,
      },
      {
        schema: 'encplan.assessment',
        schemaVersion: '2.0',
        toolVersion: '2.0.0',
        documents: 1,
        supported: false,
      },
      {
        schema: 'encplan.plan',
        schemaVersion: '1.0',
        toolVersion: TOOL_VERSION,
        documents: 1,
        supported: false,
      },
    ]);
  });

  it('reports an assessment that failed (error envelope) with its error code', () => {
    const report = buildFleetReport([doc('gone', assessment('error-device-not-found'))]);
    expect(report.rows[0]).toMatchObject({
      readiness: 'not-assessed',
      documentStatus: 'valid',
      errorCode: 'DEVICE_NOT_FOUND',
      assessmentStatus: 'error',
    });
  });

  it('builds a result that validates as the fleet envelope and the committed JSON Schema', () => {
    const report = buildFleetReport([doc('a', assessment(LOOP)), doc('b', assessment(VIRTIO))]);
    const envelope = okEnvelope(
      {
        schema: 'encplan.fleet-report',
        schemaVersion: [1, 0],
        toolVersion: TOOL_VERSION,
        generatedAt: new Date(0),
      },
      report,
      [],
    );
    expect(fleetReportDocument.envelope.parse(envelope).result?.rows).toHaveLength(2);
    // The committed schemas/fleet-report.v1.json is checked with every other document by contract/schema.test.ts.
  });
});

describe('renderFleetCsv', () => {
  it('writes one header and one RFC 4180 row per document, quoting commas and defusing formulas', () => {
    const report = buildFleetReport([
      doc('=cmd', cleanLoop()),
      { source: 'x.json', machine: 'x', error: { code: 'DOCUMENT_INVALID', message: 'bad "quote", here' } },
    ]);
    const lines = renderFleetCsv(report).split('\r\n');
    expect(lines[0]).toBe(fleetCsvColumns().join(','));
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.includes('DOCUMENT_INVALID'))).toContain('"bad ""quote"", here"');
    expect(lines.find((line) => line.includes('/dev/loop2'))).toMatch(/^'=cmd\.json,'=cmd,/);
  });
});

describe('renderFleetHtml', () => {
  it('is self-contained, escapes what machines wrote and draws the counts', () => {
    const report = buildFleetReport([doc('<script>', cleanLoop()), doc('b', assessment(VIRTIO))]);
    const html = renderFleetHtml(report, '2026-11-23T00:00:00.000Z', renderChart);
    expect(html).not.toMatch(/<script|src=|href="http/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('aria-label="Disks by readiness, in disks"');
    // One disk ready (a bar in the verdict's colour with its count), none already encrypted (a count of 0).
    expect(html).toMatch(
      /class="bar-good"><rect [^>]*width="420"[^>]*><title>Ready to encrypt as planned: 1<\/title>/,
    );
    expect(html).toContain('Ready to encrypt as planned: 1; Already encrypted: 0.');
  });
});
