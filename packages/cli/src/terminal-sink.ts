/**
 * The CLI's output sink: every byte encplan prints on stdout or stderr passes through `sanitizeForTerminal`,
 * so a drive model, a serial number or a tool's message cannot carry terminal control sequences (ESC, CSI,
 * OSC, BEL, CR, backspace, 8-bit C1 controls, bidirectional overrides) to the user's terminal. Sanitising at
 * the sink, not in each renderer, means no renderer can forget it.
 *
 * Each such character is printed as its JSON escape `\uXXXX`: inert and visible on a terminal, and inside
 * a `--json` document it is the same string once parsed (JSON.stringify already escapes C0 controls; it
 * leaves C1 controls and bidi overrides raw, which this catches).
 */

// C0 controls except TAB (0x09) and LF (0x0a), DEL, the C1 block, and the Unicode bidi embeddings, overrides
// and isolates (Unicode Standard Annex #9, "Explicit Directional Formatting Characters"; CVE-2021-42574).
// A CR right before LF is a line ending (CSV's CRLF, RFC 4180) and cannot rewrite a line, so it is kept.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/gu;

/** Replaces every character a terminal could act on (except newline and tab) by its visible `\uXXXX` form. */
export function sanitizeForTerminal(text: string): string {
  return text.replace(UNSAFE, escapedControl);
}

/**
 * One control character as `\uXXXX`, the form core's views use (escapedControl in core report/printable.ts;
 * packages/cli/tests/terminal-sink.test.ts checks they agree). Written here, not imported: importing core's
 * index would load the whole core into `encplan --help`, which prints through this sink.
 */
function escapedControl(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// The one control sequence encplan itself writes: the progress bar's status line, `\r…\x1b[K` (carriage
// return, the line, erase to end of line), optionally ending the line. Its inner text is sanitised too.
// eslint-disable-next-line no-control-regex -- the progress bar's own CR and CSI K
const STATUS_LINE = /^\r([^\r]*)\u001b\[K(\n?)$/su;

// encplan's own colours (SGR) travel through the sink as a private-use marker with a per-process random key,
// turned into ESC [ … m only after sanitising: text from a drive or a tool cannot forge it without the key.
// The key is drawn on first use: node:crypto is loaded only by a run that colours something (start-up, issue 18).
let sgrKeyAndMarker: { readonly key: string; readonly marker: RegExp } | undefined;
function sgrKey(): { readonly key: string; readonly marker: RegExp } {
  if (sgrKeyAndMarker === undefined) {
    const key = process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
    sgrKeyAndMarker = { key, marker: new RegExp(`\u{E000}${key}([0-9;]+)\u{E001}`, 'gu') };
  }
  return sgrKeyAndMarker;
}

/** Wraps text in an SGR colour (e.g. "1" bold, "31" red) that the sink alone turns into an escape sequence. */
export function sgr(code: string, text: string): string {
  const { key } = sgrKey();
  return `\u{E000}${key}${code}\u{E001}${text}\u{E000}${key}0\u{E001}`;
}

/**
 * Marks the SGR colour sequences (ESC [ … m) of text encplan composed itself from its own definitions, such as
 * oclif's help, as encplan's colours, so that the sink prints them as colours instead of escaping them. Never
 * for text that holds anything from a drive or a tool.
 */
export function keepOwnSgr(text: string): string {
  // eslint-disable-next-line no-control-regex -- the SGR sequences oclif's theme writes
  return text.replace(/\u001b\[([0-9;]*)m/gu, (_sequence, code: string) => {
    const { key } = sgrKey();
    return `\u{E000}${key}${code === '' ? '0' : code}\u{E001}`;
  });
}

/** Sanitises one chunk for the sink, keeping the progress bar's own status-line rewrite and encplan's colours. */
export function sanitizeChunk(text: string): string {
  const status = STATUS_LINE.exec(text);
  if (status !== null) {
    return `\r${sanitizeForTerminal(status[1] ?? '')}\u001b[K${status[2] ?? ''}`;
  }
  const sanitized = sanitizeForTerminal(text);
  // Before the first sgr() there is no key, so no colour of encplan's to restore.
  return sgrKeyAndMarker === undefined ? sanitized : sanitized.replace(sgrKeyAndMarker.marker, '\u001b[$1m');
}

const installed = new WeakSet<NodeJS.WriteStream>();

function wrap(stream: NodeJS.WriteStream): void {
  if (installed.has(stream)) {
    return;
  }
  installed.add(stream);
  const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk === 'string') {
      return original(sanitizeChunk(chunk), ...rest);
    }
    if (chunk instanceof Uint8Array) {
      // encplan writes text; a byte chunk is decoded as UTF-8 and sanitised like any other text (its callback,
      // if any, is kept; an encoding argument means nothing for bytes).
      return original(
        sanitizeChunk(Buffer.from(chunk).toString('utf8')),
        ...rest.filter((argument) => typeof argument !== 'string'),
      );
    }
    return original(chunk, ...rest);
  };
  stream.write = write;
}

/** Routes stdout and stderr of this process through the sanitising sink (idempotent). */
export function installTerminalSink(): void {
  wrap(process.stdout);
  wrap(process.stderr);
}
