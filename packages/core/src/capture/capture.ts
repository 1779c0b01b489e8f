import type { CommandOutput, PathStat, SystemInfoSnapshot, ToolName } from '../ports.js';
import type { ErrorCode } from '../errors.js';

/** An error a probe met, kept in the capture so that a replay meets the same one. */
export interface CapturedError {
  readonly code: ErrorCode;
  readonly message: string;
}

/** One process run: what was asked, what came back. Stdin is never recorded, only its length. */
export interface CommandCapture {
  readonly kind: 'command';
  readonly tool: ToolName;
  readonly argv: readonly string[];
  readonly stdinBytes: number;
  readonly output: CommandOutput | null;
  readonly error: CapturedError | null;
}

/** One read of the host's files or state. */
export type HostReadCapture =
  | { readonly kind: 'read-text'; readonly path: string; readonly result: string | null; readonly error: CapturedError | null }
  | { readonly kind: 'list-dir'; readonly path: string; readonly result: readonly string[] | null; readonly error: CapturedError | null }
  | { readonly kind: 'real-path'; readonly path: string; readonly result: string | null; readonly error: CapturedError | null }
  | { readonly kind: 'stat'; readonly path: string; readonly result: PathStat | null; readonly error: CapturedError | null }
  | { readonly kind: 'which-tool'; readonly tool: ToolName; readonly result: string | null; readonly error: CapturedError | null }
  | { readonly kind: 'system-info'; readonly result: SystemInfoSnapshot | null; readonly error: CapturedError | null };

/** Anything a probe recorded. */
export type Capture = CommandCapture | HostReadCapture;

/** The lookup key of a capture: the same request replays the same answer. */
export function captureKey(capture: Capture): string {
  switch (capture.kind) {
    case 'command':
      return commandKey(capture.tool, capture.argv);
    case 'read-text':
    case 'list-dir':
    case 'real-path':
    case 'stat':
      return `${capture.kind}\u0000${capture.path}`;
    case 'which-tool':
      return `which-tool\u0000${capture.tool}`;
    case 'system-info':
      return 'system-info';
  }
}

/** The key of a command capture: the tool and its exact argv. */
export function commandKey(tool: ToolName, argv: readonly string[]): string {
  return ['command', tool, ...argv].join('\u0000');
}
