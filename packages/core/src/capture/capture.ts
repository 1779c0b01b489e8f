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
  | {
      readonly kind: 'read-text';
      readonly path: string;
      readonly result: string | null;
      readonly error: CapturedError | null;
    }
  | {
      readonly kind: 'list-dir';
      readonly path: string;
      readonly result: readonly string[] | null;
      readonly error: CapturedError | null;
    }
  | {
      readonly kind: 'real-path';
      readonly path: string;
      readonly result: string | null;
      readonly error: CapturedError | null;
    }
  | {
      readonly kind: 'stat';
      readonly path: string;
      readonly result: PathStat | null;
      readonly error: CapturedError | null;
    }
  | {
      readonly kind: 'which-tool';
      readonly tool: ToolName;
      readonly result: string | null;
      readonly error: CapturedError | null;
    }
  | {
      readonly kind: 'system-info';
      readonly result: SystemInfoSnapshot | null;
      readonly error: CapturedError | null;
    };

/** The host effects a capture can record (the methods of `HostEffects`). */
export const EFFECT_OPS = [
  'run-identity',
  'monotonic-ms',
  'make-directory',
  'create-file',
  'write-text-atomic',
  'remove',
  'free-bytes',
  'direct-io-allowed',
  'process-alive',
] as const;
export type EffectOp = (typeof EFFECT_OPS)[number];

/**
 * One host effect: what was asked (op, the path or pid it acted on, non-secret arguments) and what came back.
 * File contents made on the host (keys) are never recorded, only their size.
 */
export interface EffectCapture {
  readonly kind: 'effect';
  readonly op: EffectOp;
  /** The path acted on, the pid asked about, or null for run-identity and monotonic-ms. */
  readonly target: string | null;
  readonly args: Readonly<Record<string, string | number | boolean>>;
  readonly result: unknown;
  readonly error: CapturedError | null;
}

/** Anything a probe recorded. */
export type Capture = CommandCapture | HostReadCapture | EffectCapture;

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
    case 'effect':
      return effectKey(capture.op, capture.target);
  }
}

/** The key of a command capture: the tool and its exact argv. */
export function commandKey(tool: ToolName, argv: readonly string[]): string {
  return ['command', tool, ...argv].join('\u0000');
}

/** The key of an effect capture: the operation and what it acted on. */
export function effectKey(op: EffectOp, target: string | null): string {
  return ['effect', op, target ?? ''].join('\u0000');
}
