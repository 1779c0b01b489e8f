import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { TOOL_NAMES } from '../ports.js';
import { ERROR_CODES } from '../errors.js';
import { EFFECT_OPS, type Capture } from './capture.js';

/** The bundle format's name and version (docs/json-contract.md, "Bundles"). */
export const BUNDLE_SCHEMA = 'encplan.bundle' as const;
/**
 * 1.1: `effect` captures and `benchmark` (a benchmarked collection replays its benchmark).
 * 1.2: `all` (a `collect --all` bundle: every disk of the machine, replayed by `assess --all --bundle`).
 * 1.3: `benchmark.quickRevision` (which quick mode ran; absent: revision 1, quick mode before issue 18).
 * 1.4: `benchmark.quickRevision` may be 3 (issue 24: fscrypt in one cold pass, aes-256-xts decryption).
 * 1.5: `benchmark.quickRevision` may be 4 (issue 24 item 4: aes-128/256-xts in three interleaved pairs).
 * 1.6: `benchmark.quickRevision` may be 5 (issues 24/28: OpenSSL AES only where used, PBKDF2 medians).
 * 1.7: `benchmark.quickRevision` may be 6 (issue 24 item 4: every PBKDF2 hash a rule reads and argon2id more than once).
 */
export const BUNDLE_SCHEMA_VERSION = [1, 7] as const;

const capturedErrorSchema = z.object({ code: z.enum(ERROR_CODES), message: z.string() }).nullable();
const pathStatSchema = z.object({
  kind: z.enum(['block-device', 'character-device', 'file', 'directory', 'other']),
  deviceNumber: z.string().nullable(),
  containingDeviceNumber: z.string(),
  sizeBytes: z.number(),
  readable: z.boolean(),
});

/** One capture as stored in a bundle. */
const captureSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    tool: z.enum(TOOL_NAMES),
    argv: z.array(z.string()),
    stdinBytes: z.number().int(),
    output: z
      .object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string(), durationMs: z.number() })
      .nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('read-text'),
    path: z.string(),
    result: z.string().nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('list-dir'),
    path: z.string(),
    result: z.array(z.string()).nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('real-path'),
    path: z.string(),
    result: z.string().nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('stat'),
    path: z.string(),
    result: pathStatSchema.nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('which-tool'),
    tool: z.enum(TOOL_NAMES),
    result: z.string().nullable(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('effect'),
    op: z.enum(EFFECT_OPS),
    target: z.string().nullable(),
    args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    result: z.unknown(),
    error: capturedErrorSchema,
  }),
  z.object({
    kind: z.literal('system-info'),
    result: z
      .object({
        cpu: z.record(z.string(), z.unknown()),
        cpuFlags: z.string(),
        mem: z.record(z.string(), z.unknown()),
        os: z.record(z.string(), z.unknown()),
        diskLayout: z.array(z.record(z.string(), z.unknown())),
      })
      .nullable(),
    error: capturedErrorSchema,
  }),
]);

/** A bundle: every capture of one assessment, enough to run the analysis again anywhere. */
const bundleSchema = z.object({
  schema: z.literal(BUNDLE_SCHEMA),
  schemaVersion: z.tuple([z.number().int(), z.number().int()]),
  toolVersion: z.string(),
  collectedAt: z.iso.datetime(),
  platform: z.enum(['linux', 'darwin', 'win32', 'other']),
  cwd: z.string(),
  privileged: z.boolean(),
  /** The device argument the collection was made for (null: the disk holding cwd). */
  device: z.string().nullable(),
  serialsIncluded: z.boolean(),
  /** The benchmark the collection ran (`collect --benchmark [--quick]`), replayed with the bundle; absent: none. */
  benchmark: z
    .object({
      quick: z.boolean(),
      quickRevision: z
        .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)])
        .optional(),
      /** 1.5: the folder `--scratch` named for the scratch containers; absent: the disk's own (replayed alike). */
      scratchDirectory: z.string().optional(),
    })
    .nullable()
    .optional(),
  /** True for `collect --all`: every whole disk of the machine (`device` is then null); absent: one disk. */
  all: z.boolean().optional(),
  captures: z.array(captureSchema),
});
export type Bundle = z.infer<typeof bundleSchema>;

/** Validates a parsed bundle document. Throws BUNDLE_INVALID with what is wrong. */
export function parseBundle(document: unknown): Bundle {
  const parsed = bundleSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EncplanError(
      'BUNDLE_INVALID',
      `The bundle is not valid: ${issue === undefined ? 'unknown problem' : `${issue.path.join('.')}: ${issue.message}`}.`,
      {
        hint: 'Make bundles with encplan collect; do not edit them by hand.',
      },
    );
  }
  if (parsed.data.schemaVersion[0] !== BUNDLE_SCHEMA_VERSION[0]) {
    throw new EncplanError(
      'BUNDLE_INVALID',
      `The bundle has format version ${parsed.data.schemaVersion.join('.')}; this encplan reads ${BUNDLE_SCHEMA_VERSION[0]}.x.`,
    );
  }
  if (parsed.data.captures.length === 0) {
    // Without captures every probe would see an empty machine and report the disk as missing.
    throw new EncplanError(
      'BUNDLE_INVALID',
      'The bundle holds no captures: nothing was recorded to assess.',
      {
        hint: 'Make bundles with encplan collect; do not edit them by hand.',
      },
    );
  }
  return parsed.data;
}

/**
 * Replaces every occurrence of the given identifiers (serials, WWNs) in the captures by their protected
 * form, so a bundle shared in a ticket carries no serial numbers. Pure.
 */
export function redactCaptures(
  captures: readonly Capture[],
  replacements: ReadonlyMap<string, string>,
): Bundle['captures'] {
  // Identifiers shorter than 4 characters would match unrelated text; none real are that short.
  const pairs = [...replacements].filter(([raw]) => raw.length >= 4);
  const redact = (text: string): string =>
    pairs.reduce((acc, [raw, safe]) => acc.split(raw).join(safe), text);
  return JSON.parse(redact(JSON.stringify(captures))) as Bundle['captures'];
}
