import type { IoBenchmark, Overhead } from '../domain/io-benchmark.js';
import { formatTextTable } from './text-report.js';

const MIB = 1024 * 1024;

function mib(bytesPerSecond: number): string {
  return (bytesPerSecond / MIB).toFixed(bytesPerSecond >= 100 * MIB ? 0 : 1);
}

/** Profile names left, figures right-aligned (the first column is the profile). */
function table(rows: readonly (readonly string[])[]): string {
  const [header = [], ...body] = rows;
  return formatTextTable(
    header,
    body,
    '',
    header.map((_, column) => column > 0),
  );
}

function overheadRows(rows: readonly Overhead[]): string[][] {
  return [
    ['profile', 'plain MiB/s', 'encrypted MiB/s', 'ratio', 'CPU % plain/enc', 'bound'],
    ...rows.map((row) => [
      `${row.profileLabel} ${row.direction}`,
      mib(row.plainBytesPerSecond),
      mib(row.encryptedBytesPerSecond),
      row.throughputRatio === null ? 'n/a' : row.throughputRatio.toFixed(2),
      `${row.plainCpuPercent.toFixed(0)}/${row.encryptedCpuPercent.toFixed(0)}`,
      row.bound,
    ]),
  ];
}

/** The seeds' table per encrypted variant (MiB/s = 2^20 bytes per second), then what was skipped and why. */
export function renderIoBenchmark(result: IoBenchmark): string {
  const parts: string[] = [];
  const plain = result.plain;
  parts.push(
    `Target: ${result.target} (${result.mode}; fio ${plain.ioEngine}, O_DIRECT ${plain.directIo ? 'on' : 'off'}, ${plain.fileSizeBytes / MIB} MiB file)`,
  );
  if (result.encrypted.length === 0) {
    parts.push(
      table([
        ['profile', 'plain MiB/s', 'IOPS', 'CPU %', 'spread %'],
        ...plain.profiles.map((measurement) => [
          `${measurement.profile.label} ${measurement.profile.direction}`,
          mib(measurement.summary.medianBytesPerSecond),
          measurement.summary.medianIops.toFixed(0),
          measurement.summary.medianCpuPercent.toFixed(0),
          measurement.summary.spreadPercent.toFixed(1),
        ]),
      ]),
    );
  }
  for (const measurement of result.encrypted) {
    parts.push('', `${measurement.variant}:`);
    parts.push(table(overheadRows(result.overhead.filter((row) => row.variant === measurement.variant))));
    for (const note of measurement.notes) {
      parts.push(`  note: ${note}`);
    }
  }
  for (const skipped of result.skipped) {
    parts.push('', `${skipped.variant}: not measured (${skipped.code}): ${skipped.message}`);
  }
  if (result.overhead.some((row) => row.bound === 'undetermined')) {
    parts.push(
      '',
      'bound "undetermined": pass --cipher-bytes-per-second (one core, e.g. from `encplan benchmark ciphers`) to tell cipher from queueing limits.',
    );
  }
  parts.push('', `Wall time: ${(result.wallTimeMs / 1000).toFixed(1)} s`);
  return parts.join('\n');
}
