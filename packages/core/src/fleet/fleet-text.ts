import {
  FLEET_ISSUE_LABELS,
  type FleetReport,
  type FleetRow,
  type FleetTotals,
  type Readiness,
} from '../domain/fleet-report.js';
import { countOf, formatBytes } from '../domain/units.js';
import { isFileLevelOnly, issuesOf } from './fleet-report.js';

/** The groups of the text report, in the order printed, with their titles and counts. */
export const FLEET_TEXT_SECTIONS: readonly {
  readonly readiness: Readiness;
  readonly title: string;
  readonly count: (totals: FleetTotals) => number;
}[] = [
  { readiness: 'fix-first', title: 'Must fix first', count: (totals) => totals.summary.fixFirst },
  {
    readiness: 'not-assessed',
    title: 'Not assessed (document unusable or the assessment failed)',
    count: (totals) => totals.summary.notAssessed,
  },
  { readiness: 'no-plan', title: 'Assessed, but no plan', count: (totals) => totals.summary.noPlan },
  { readiness: 'ready', title: 'Ready to encrypt as planned', count: (totals) => totals.summary.ready },
  {
    readiness: 'already-encrypted',
    title: 'Already encrypted (as strong as the plan)',
    count: (totals) => totals.summary.alreadyEncrypted,
  },
];

/** The text report's opening lines: counts, issues, versions. Each group follows (FLEET_TEXT_SECTIONS). */
export function fleetTextHead(totals: FleetTotals): string[] {
  const { summary } = totals;
  const lines = [
    `${countOf(summary.documents, 'document')}, ${countOf(summary.machines, 'machine')}, ${countOf(summary.disks, 'disk')}: ${String(summary.ready)} ready, ${String(summary.fixFirst)} must fix first, ${String(summary.alreadyEncrypted)} already encrypted, ${String(summary.noPlan)} without a plan, ${String(summary.notAssessed)} not assessed.`,
  ];
  const { linux, darwin, win32 } = summary.platforms;
  if (darwin + win32 > 0) {
    lines.push(`Platforms: ${String(linux)} Linux, ${String(darwin)} macOS, ${String(win32)} Windows disks.`);
  }
  if (summary.fileLevelOnly > 0) {
    lines.push(
      `${countOf(summary.fileLevelOnly, 'disk')} ${summary.fileLevelOnly === 1 ? 'is' : 'are'} encrypted only folder by folder (fscrypt, eCryptfs homes): not full-disk encryption, so ${summary.fileLevelOnly === 1 ? 'it is' : 'they are'} not counted as encrypted.`,
    );
  }
  if (summary.duplicateDisks > 0) {
    lines.push(
      `${countOf(summary.duplicateDisks, 'disk')} ${summary.duplicateDisks === 1 ? 'is' : 'are'} listed more than once for the same machine; each is counted once (the repeats say which row they repeat).`,
    );
  }
  if (totals.policy.methods.length > 0) {
    lines.push(`Policy: encryption method ${totals.policy.methods.join(' or ')}.`);
  }
  const issues = totals.issueCounts.filter((entry) => entry.count > 0);
  if (issues.length > 0) {
    lines.push('', 'Issues:');
    for (const entry of issues) {
      lines.push(`  ${String(entry.count).padStart(4)}  ${entry.label} (${entry.issue})`);
    }
  }
  const unsupported = totals.versions.filter((version) => !version.supported);
  if (totals.versions.length > 1 || unsupported.length > 0) {
    lines.push('', 'Versions (not merged silently):');
    for (const version of totals.versions) {
      lines.push(
        `  ${String(version.documents).padStart(4)}  ${version.schema} ${version.schemaVersion} from encplan ${version.toolVersion}${version.supported ? '' : '  ← not a version this encplan knows'}`,
      );
    }
  }
  return lines;
}

/** One disk's lines in its group: machine, disk and issues, then the error, the reasons and the plan. */
export function fleetTextRow(row: FleetRow): string[] {
  const issues = issuesOf(row);
  const issueText = issues.length === 0 ? '' : `  ${issues.map((id) => FLEET_ISSUE_LABELS[id]).join(', ')}`;
  const version =
    row.documentStatus === 'valid'
      ? ''
      : `  [${row.documentStatus}${row.toolVersion === null ? '' : ` ${row.toolVersion}`}]`;
  const repeat = row.duplicateOf === null ? '' : `  (repeats ${row.duplicateOf}; not counted)`;
  const lines = [`  ${row.machine}  ${row.disk ?? '-'}${issueText}${version}${repeat}`];
  if (row.errorMessage !== null) {
    lines.push(`      ${row.errorCode ?? 'ERROR'}: ${row.errorMessage}`);
  }
  if (row.issueDetails !== '') {
    lines.push(...row.issueDetails.split(' | ').map((detail) => `      - ${detail}`));
  }
  if (row.existingEncryption !== null) {
    const state = [
      row.encryptionMethod,
      row.protectionOn === null ? null : `protection ${protectionWord(row)}`,
      row.conversionInProgress === true
        ? `conversion in progress${row.conversion === null ? '' : ` (${row.conversion})`}`
        : null,
      row.keySlots === null ? null : `key slots ${row.keySlots}`,
      row.passphraseOutsideSlot0 === true ? 'passphrase outside slot 0' : null,
      `TPM ${row.tpmProtector === null ? 'unknown' : row.tpmProtector ? 'yes' : 'no'}`,
    ].filter((part) => part !== null);
    lines.push(
      `      encrypted: ${row.existingEncryption}${state.length === 0 ? '' : ` (${state.join(', ')})`}`,
    );
  }
  const fileLevel = fileLevelWords(row);
  if (fileLevel !== null) {
    lines.push(`      ${fileLevel}`);
  }
  const layout = storageLayout(row);
  if (layout !== null) {
    lines.push(`      storage: ${layout}`);
  }
  if (row.planSummary !== null) {
    lines.push(`      plan: ${row.planSummary}  (${row.source})`);
  }
  return lines;
}

/**
 * The folders encrypted file by file, said as what they are: the only encryption of the disk ("file-level only,
 * not full-disk"), or beside a full-disk one. Null when the disk has none.
 */
export function fileLevelWords(
  row: Pick<FleetRow, 'fileLevelEncryption' | 'existingEncryption'>,
): string | null {
  if (row.fileLevelEncryption === null) {
    return null;
  }
  return `${isFileLevelOnly(row) ? 'file-level only, not full-disk' : 'also file-level'}: ${row.fileLevelEncryption}`;
}

/** on, or how it is not: off, or suspended (fully encrypted, the key in the clear). */
export function protectionWord(row: Pick<FleetRow, 'protectionOn' | 'protection'>): string {
  return row.protectionOn === true ? 'on' : row.protection === 'suspended' ? 'suspended' : 'off';
}

/**
 * What the disk's layers mean for encrypting it, in words: other disks a volume group spans, and where discards
 * stop with the space the drive could get back (unknown said as unknown). Null when there is nothing to say.
 */
export function storageLayout(
  row: Pick<FleetRow, 'spansDisks' | 'otherDisks' | 'discardsStopAt' | 'reclaimableBytes'>,
): string | null {
  const parts = [
    row.spansDisks === true
      ? `spans ${row.otherDisks?.split(';').join(', ') ?? 'other disks'} too (a volume group or array over several disks)`
      : null,
    row.discardsStopAt === null
      ? null
      : `discards stop at ${row.discardsStopAt.split(';').join(', ')}; ${row.reclaimableBytes === null ? 'space the drive could get back: unknown' : `the drive could get back ${formatBytes(row.reclaimableBytes)}`}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join('; ');
}

/** The whole text report for a report held in memory. */
export function renderFleetText(report: FleetReport): string {
  const lines = fleetTextHead(report);
  for (const section of FLEET_TEXT_SECTIONS) {
    const rows = report.rows.filter((row) => row.readiness === section.readiness);
    if (rows.length > 0) {
      lines.push('', `${section.title} (${String(section.count(report))}):`, ...rows.flatMap(fleetTextRow));
    }
  }
  return lines.join('\n');
}
