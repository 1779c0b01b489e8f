import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { fioOutputSchema } from '../../src/domain/io-benchmark.js';
import { parseFioJson } from '../../src/parsers/fio/parse-fio-json.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/fio', import.meta.url));
const cases = readdirSync(FIXTURES).sort();
const read = (name: string): string => readFileSync(path.join(FIXTURES, name, 'output.json'), 'utf8');

function codeOf(action: () => unknown): string | null {
  try {
    action();
    return null;
  } catch (error) {
    return isEncplanError(error) ? error.code : 'NOT_AN_ENCPLAN_ERROR';
  }
}

describe('parseFioJson on captured fio outputs', () => {
  it.each(cases.filter((name) => !name.includes('error22')))(
    'parses %s into schema-valid runs',
    async (name) => {
      const parsed = parseFioJson(read(name));
      expect(fioOutputSchema.parse(parsed)).toEqual(parsed);
      await expect(`${JSON.stringify(parsed, null, 2)}\n`).toMatchFileSnapshot(
        path.join(FIXTURES, name, 'expected.json'),
      );
    },
  );

  it('derives bytes per second from io_bytes over runtime, not from the whole-KiB/s bw that fio 3.1 rounds', () => {
    const name = 'sata-hdd-samsung-f1-randwrite-qd1-fio3.1';
    const run = parseFioJson(read(name)).runs[0]!;
    const write = JSON.parse(read(name)).jobs[0].write as { io_bytes: number; runtime: number; bw: number };
    // 36278272 bytes in 60004 ms = 604,598 B/s; the rounded bw (590 KiB/s) would say 604,160.
    expect(run.bytesPerSecond).toBe(Math.round((write.io_bytes * 1000) / write.runtime));
    expect(run.bytesPerSecond).toBe(604_598);
    expect(write.bw * 1024).toBe(604_160);
    const ssd = parseFioJson(read('sata-ssd-intel-d3-s4610-randread-qd1-fio3.1')).runs[0]!;
    expect(ssd.direction).toBe('read');
    expect(ssd.iops).toBeGreaterThan(15_000);
    expect(ssd.clatP50Ns).not.toBeNull();
    expect(ssd.clatP999Ns!).toBeGreaterThanOrEqual(ssd.clatP99Ns!);
  });

  it('falls back to bw_bytes, then bw, when a job counted no bytes or no time', () => {
    const document = JSON.parse(read('sata-hdd-samsung-f1-randwrite-qd1-fio3.1'));
    document.jobs[0].write.runtime = 0;
    expect(parseFioJson(JSON.stringify(document)).runs[0]!.bytesPerSecond).toBe(590 * 1024);
    document.jobs[0].write.bw_bytes = 604_000;
    expect(parseFioJson(JSON.stringify(document)).runs[0]!.bytesPerSecond).toBe(604_000);
  });

  it('keeps the signal line printed before the JSON of an interrupted macOS run', () => {
    const parsed = parseFioJson(read('macos-interrupted-sigint-prefix-fio3.34'));
    expect(parsed.preambleLines).toEqual(['fio: terminating on signal 2']);
    expect(parsed.fioVersion).toBe('fio-3.34');
  });

  it('turns job error 22 into TOOL_FAILED carrying the error lines fio printed', () => {
    try {
      parseFioJson(read('macos-error22-stderr-prefix-fio3.33'));
      expect.unreachable();
    } catch (error) {
      expect(isEncplanError(error, 'TOOL_FAILED')).toBe(true);
      const details = (error as { details: { errno: number; errorLines: string[] } }).details;
      expect(details.errno).toBe(22);
      expect(details.errorLines).toHaveLength(3);
      expect(details.errorLines[0]).toBe('fio: time_based requires a runtime/timeout setting');
    }
  });
});

describe('parseFioJson on malformed and hostile input', () => {
  const good = read('usb-ssd-crucial-240gb-randwrite-qd1-nj16-fio3.1');

  it('rejects every truncation of a real output with TOOL_OUTPUT_UNRECOGNIZED', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.trimEnd().length - 2 }), (cut) => {
        expect(codeOf(() => parseFioJson(good.slice(0, cut)))).toBe('TOOL_OUTPUT_UNRECOGNIZED');
      }),
      { numRuns: 200 },
    );
  });

  it('never throws anything but an EncplanError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const code = codeOf(() => parseFioJson(text));
        expect(code === null || code === 'TOOL_OUTPUT_UNRECOGNIZED' || code === 'TOOL_FAILED').toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects arbitrary JSON values that are not fio documents', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        fc.pre(!json.includes('fio version'));
        expect(codeOf(() => parseFioJson(`{"x":${json}}`))).toBe('TOOL_OUTPUT_UNRECOGNIZED');
      }),
      { numRuns: 300 },
    );
  });

  it('rejects negative or non-numeric counters instead of reporting them', () => {
    const doc = JSON.parse(good);
    doc.jobs[0].write.bw = -1;
    expect(codeOf(() => parseFioJson(JSON.stringify(doc)))).toBe('TOOL_OUTPUT_UNRECOGNIZED');
    doc.jobs[0].write.bw = '100';
    expect(codeOf(() => parseFioJson(JSON.stringify(doc)))).toBe('TOOL_OUTPUT_UNRECOGNIZED');
  });

  it('ignores __proto__ keys in hostile JSON', () => {
    const doc = JSON.parse(good);
    const hostile = JSON.stringify(doc).replace('{', '{"__proto__":{"polluted":true},');
    parseFioJson(hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses input larger than 64 MiB without parsing it', () => {
    const huge = `{${' '.repeat(64 * 1024 * 1024)}}`;
    expect(codeOf(() => parseFioJson(huge))).toBe('TOOL_OUTPUT_UNRECOGNIZED');
  });

  it('rejects a document with an empty job list', () => {
    expect(codeOf(() => parseFioJson('{"fio version":"fio-3.33","jobs":[]}'))).toBe(
      'TOOL_OUTPUT_UNRECOGNIZED',
    );
  });
});
