import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { fleetReportDocument } from '../contract/documents.js';
import type { FleetPolicy, FleetRow, FleetTotals } from '../domain/fleet-report.js';
import { fleetCsvHeader, fleetCsvLine } from '../fleet/fleet-csv.js';
import { FLEET_HTML_END, fleetHtmlRow, fleetHtmlStart } from '../fleet/fleet-html.js';
import { FleetReportBuilder, type FleetDocument } from '../fleet/fleet-report.js';
import { FLEET_TEXT_SECTIONS, fleetTextHead, fleetTextRow } from '../fleet/fleet-text.js';
import { userPathError } from './user-files.js';
import { loadChartRenderer } from './chart-renderer.js';

/** Where `writeFleetReport` writes: any of JSON, CSV and text to a stream, HTML to a file. */
export interface FleetReportOutputs {
  readonly json?: Writable;
  readonly csv?: Writable;
  readonly text?: Writable;
  readonly htmlFile?: string;
}

/** Stands for the result while the envelope around it is split into what precedes and follows the rows. */
const ROWS_MARK = '@@encplan-fleet-rows@@';

/** Bytes gathered before one write: few system calls, little held. */
const CHUNK_BYTES = 64 * 1024;

/** Buffers small strings into chunks and waits for 'drain' when the stream says so (backpressure). */
class ChunkedWriter {
  private pending: string[] = [];
  private size = 0;
  constructor(private readonly stream: Writable) {}

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= CHUNK_BYTES) {
      await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) {
      return;
    }
    const chunk = this.pending.join('');
    this.pending = [];
    this.size = 0;
    if (!this.stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => {
          this.stream.off('drain', onDrain);
          reject(error);
        };
        const onDrain = () => {
          this.stream.off('error', onError);
          resolve();
        };
        this.stream.once('drain', onDrain);
        this.stream.once('error', onError);
      });
    }
  }
}

/** Ends a file's write stream and waits until the file is closed. */
async function closeFile(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.once('close', resolve);
    stream.end();
  });
}

/** Rows of the spool file, one JSON line each, read back in order. */
async function* spooledRows(file: string): AsyncGenerator<FleetRow> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line !== '') {
      yield JSON.parse(line) as FleetRow;
    }
  }
}

/**
 * `encplan fleet report` as a stream: each document is read, turned into rows and forgotten. JSON and CSV
 * rows are written as they come (the JSON envelope's counts follow its rows); text and HTML print the counts
 * first, so their rows wait in a spool file of one JSON line per row (a private temporary folder, removed at
 * the end, also after a failure) and are rendered from it once the counts are known. Memory is what
 * FleetReportBuilder keeps per row (machine and disk) plus one document, whatever the fleet's size.
 */
export async function writeFleetReport(
  documents: AsyncIterable<FleetDocument> | Iterable<FleetDocument>,
  outputs: FleetReportOutputs,
  options: {
    readonly policy?: FleetPolicy;
    readonly generatedAt: Date;
    /** Where the spool folder is made (default: the system's temporary folder). */
    readonly spoolParent?: string;
  },
): Promise<FleetTotals> {
  const builder = new FleetReportBuilder(options.policy);
  const json = outputs.json === undefined ? null : new ChunkedWriter(outputs.json);
  const csv = outputs.csv === undefined ? null : new ChunkedWriter(outputs.csv);
  // The HTML file is opened first: a path that cannot be written fails before any output, not after the fleet.
  const htmlFile = outputs.htmlFile;
  const html =
    htmlFile === undefined
      ? null
      : await open(htmlFile, 'w', 0o644).catch((error: unknown) => {
          throw userPathError(error, htmlFile, 'HTML fleet report', { verb: 'write' });
        });
  // Until its write stream takes the file over (and closes it), the file is closed here.
  let htmlHandedOver = false;
  const needsSpool = outputs.text !== undefined || html !== null;
  const spoolFolder = needsSpool
    ? await mkdtemp(path.join(options.spoolParent ?? tmpdir(), 'encplan-fleet-'))
    : null;
  try {
    const spoolFile = spoolFolder === null ? null : path.join(spoolFolder, 'rows.ndjson');
    const spoolStream = spoolFile === null ? null : createWriteStream(spoolFile, { mode: 0o600 });
    const spool = spoolStream === null ? null : new ChunkedWriter(spoolStream);
    // The envelope as fleetReportDocument.ok builds it, with `rows` first so they can stream.
    const head = fleetReportDocument.ok(null as never, [], options.generatedAt);
    const [envelopeStart, envelopeEnd] = JSON.stringify({ ...head, result: ROWS_MARK }).split(
      JSON.stringify(ROWS_MARK),
    );
    let first = true;
    await json?.write(`${envelopeStart ?? ''}{"rows":[`);
    await csv?.write(fleetCsvHeader());
    for await (const document of documents) {
      for (const row of builder.add(document)) {
        const line = JSON.stringify(row);
        await json?.write(first ? `\n${line}` : `,\n${line}`);
        first = false;
        await csv?.write(fleetCsvLine(row));
        await spool?.write(`${line}\n`);
      }
    }
    const totals = builder.totals();
    const rest = JSON.stringify(totals);
    await json?.write(`\n],${rest.slice(1)}${envelopeEnd ?? ''}\n`);
    await json?.flush();
    await csv?.flush();
    if (spool !== null && spoolStream !== null && spoolFile !== null) {
      await spool.flush();
      await closeFile(spoolStream);
      if (html !== null) {
        htmlHandedOver = true;
        await writeHtml(html, spoolFile, totals, options.generatedAt);
      }
      if (outputs.text !== undefined) {
        await writeText(outputs.text, spoolFile, totals);
      }
    }
    return totals;
  } finally {
    if (!htmlHandedOver) {
      await html?.close();
    }
    if (spoolFolder !== null) {
      await rm(spoolFolder, { recursive: true, force: true });
    }
  }
}

async function writeHtml(file: FileHandle, spoolFile: string, totals: FleetTotals, generatedAt: Date) {
  const stream = file.createWriteStream();
  const html = new ChunkedWriter(stream);
  await html.write(fleetHtmlStart(totals, generatedAt.toISOString(), await loadChartRenderer()));
  for await (const row of spooledRows(spoolFile)) {
    await html.write(fleetHtmlRow(row));
  }
  await html.write(FLEET_HTML_END);
  await html.flush();
  await closeFile(stream);
}

async function writeText(output: Writable, spoolFile: string, totals: FleetTotals) {
  const text = new ChunkedWriter(output);
  await text.write(fleetTextHead(totals).join('\n'));
  // One pass over the spool per group: the groups are printed in order, the rows in the order read.
  for (const section of FLEET_TEXT_SECTIONS) {
    let started = false;
    for await (const row of spooledRows(spoolFile)) {
      if (row.readiness !== section.readiness) {
        continue;
      }
      if (!started) {
        await text.write(`\n\n${section.title} (${String(section.count(totals))}):`);
        started = true;
      }
      await text.write(`\n${fleetTextRow(row).join('\n')}`);
    }
  }
  await text.write('\n');
  await text.flush();
}
