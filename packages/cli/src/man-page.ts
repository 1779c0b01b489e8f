/** A command as the man page describes it (taken from oclif's command definitions). */
export interface ManCommand {
  readonly id: string;
  readonly usage: string;
  readonly summary: string;
  readonly description: string;
  readonly flags: readonly {
    readonly name: string;
    readonly char: string | null;
    readonly value: string | null;
    readonly summary: string;
  }[];
  readonly examples: readonly string[];
}

/** Escapes text for roff: backslashes, and a leading dot or quote that roff would read as a request. */
function roff(text: string): string {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

const EXIT_CODES: readonly (readonly [string, string])[] = [
  ['0', 'ran (status ok or partial).'],
  ['1', 'internal error (a bug: please report it with the --json output).'],
  ['2', 'usage: a bad argument or flag, an unreadable bundle, a file that cannot be written.'],
  ['3', 'a missing tool, permission or kernel feature, or a tool that failed.'],
  ['4', 'device not found, unsupported or in use; a destructive operation refused.'],
  ['5', '--fail-on matched: the drive health is at or past the threshold.'],
  ['130', 'cancelled (Ctrl-C, SIGTERM).'],
];

/** encplan(1) in roff, from the command definitions, so it never disagrees with `encplan help`. */
export function manPage(version: string, commands: readonly ManCommand[]): string {
  const lines = [
    `.TH ENCPLAN 1 "" "encplan ${roff(version)}" "User Commands"`,
    '.SH NAME',
    'encplan \\- plan disk encryption from measurements on your own machine',
    '.SH SYNOPSIS',
    '.B encplan',
    '\\fICOMMAND\\fR [\\fIARGUMENTS\\fR] [\\fIFLAGS\\fR]',
    '.SH DESCRIPTION',
    roff(
      'Before you encrypt a drive with LUKS/dm-crypt, VeraCrypt, APFS or BitLocker, encplan answers three questions with reasons and evidence: how much slower will it get, is the SSD healthy and set up right for it (TRIM, spare area), and which settings should you pick. It is read-only unless a command is given --destructive and the confirmation it asks for. Every command takes --json and then prints exactly one versioned JSON envelope.',
    ),
    '.SH COMMANDS',
  ];
  for (const command of [...commands].sort((left, right) => left.id.localeCompare(right.id))) {
    lines.push(`.SS "${roff(command.usage)}"`, roff(command.summary));
    if (command.description !== '' && command.description !== command.summary) {
      lines.push('.PP', roff(command.description));
    }
    for (const flag of command.flags) {
      const names = [flag.char === null ? null : `\\-${flag.char}`, `\\-\\-${roff(flag.name)}`]
        .filter((name) => name !== null)
        .join(', ');
      lines.push(
        '.TP',
        `.B ${names}${flag.value === null ? '' : ` \\fI${roff(flag.value)}\\fR`}`,
        roff(flag.summary),
      );
    }
    if (command.examples.length > 0) {
      lines.push(
        '.PP',
        'Examples:',
        '.RS',
        '.nf',
        ...command.examples.map((example) => roff(example)),
        '.fi',
        '.RE',
      );
    }
  }
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_CODES) {
    lines.push('.TP', `.B ${code}`, roff(meaning));
  }
  lines.push(
    '.SH FILES',
    '.TP',
    '.B /run/encplan',
    roff('State of running benchmarks, so that `encplan cleanup` can remove what a killed run left.'),
    '.SH SEE ALSO',
    '.BR cryptsetup (8),',
    '.BR veracrypt (1),',
    '.BR smartctl (8),',
    '.BR fio (1),',
    '.BR nvme (1),',
    '.BR hdparm (8)',
  );
  return `${lines.join('\n')}\n`;
}
