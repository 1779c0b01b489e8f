import type { BackendVerification } from '../../domain/io-benchmark.js';
import { parseFscryptStatus } from '../../parsers/fscrypt/parse-fscrypt-status.js';
import {
  resourceName,
  runChecked,
  SETUP_TIMEOUT_MS,
  unverified,
  writeKeyFile,
  type PreparedTarget,
  type ScratchFilesystem,
  type TargetContext,
} from '../container-steps.js';
import { joinPath } from '../posix-paths.js';

/**
 * Where one run's fscrypt keeps its global state. fscrypt reads its config file from `FSCRYPT_CONF` and puts
 * the "root" metadata directory on `FSCRYPT_ROOT_MNT` (fscrypt v0.3 cmd/fscrypt: both override
 * /etc/fscrypt.conf and /.fscrypt), so a benchmark never creates or deletes anything of the user's fscrypt
 * setup: the config goes in the run's private directory, the metadata on the run's scratch filesystem.
 */
export interface FscryptState {
  readonly configFile: string;
  readonly rootMount: string;
}

/** The environment that points fscrypt at a run's own state. */
export function fscryptEnvironment(state: FscryptState): Record<string, string> {
  return { FSCRYPT_CONF: state.configFile, FSCRYPT_ROOT_MNT: state.rootMount };
}

export const fscryptArgs = {
  /**
   * Global setup, run with `fscryptEnvironment`: writes the run's config file and the metadata directory of
   * its scratch filesystem (which is also the "root" one, so no separate filesystem setup is needed).
   * `--time=1ms` because the passphrase hashing cost it calibrates is unused with raw keys.
   */
  setupGlobal: (): string[] => ['setup', '--time=1ms', '--quiet'],
  encryptWithRawKey: (directory: string, protectorName: string, keyFile: string): string[] => [
    'encrypt',
    directory,
    '--source=raw_key',
    `--name=${protectorName}`,
    `--key=${keyFile}`,
    '--quiet',
  ],
  /** Prints the directory's policy id, options, unlocked state and protectors (fixture fscrypt/status-*). */
  status: (directory: string): string[] => ['status', directory],
  lock: (directory: string): string[] => ['lock', directory, '--quiet'],
};

/** Proves a directory carries an unlocked fscrypt policy with AES-256-XTS contents, via `fscrypt status`. */
export async function verifyFscrypt(
  context: Pick<TargetContext, 'host' | 'signal'>,
  directory: string,
  env: Readonly<Record<string, string>>,
): Promise<BackendVerification> {
  const args = fscryptArgs.status(directory);
  const output = await context.host.run(
    { tool: 'fscrypt', args, timeoutMs: SETUP_TIMEOUT_MS, env },
    context.signal,
  );
  const status = parseFscryptStatus(output.exitCode === 0 ? output.stdout : '');
  if (
    !status.encrypted ||
    status.policyId === null ||
    status.unlocked !== true ||
    status.contentsMode !== 'AES_256_XTS'
  ) {
    throw unverified('fscrypt', `fscrypt status ${directory} shows no unlocked AES_256_XTS policy.`, {
      directory,
    });
  }
  return {
    method: `fscrypt ${args.join(' ')}`,
    identity: `policy ${status.policyId}`,
    cipher: status.contentsMode,
  };
}

/**
 * An fscrypt (v2 policy, raw 256-bit key) directory on the SAME filesystem as the plain run, so the only
 * difference is encryption. fscrypt's config lives in the run's private directory and its metadata on the
 * scratch filesystem (`fscryptEnvironment`): nothing of the user's /etc/fscrypt.conf or /.fscrypt is created,
 * read or removed, and two runs never share fscrypt state. The key file is deleted once the kernel holds the key.
 */
export async function prepareFscrypt(
  context: TargetContext,
  scratch: ScratchFilesystem,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const state = { configFile: joinPath(context.workDir, 'fscrypt.conf'), rootMount: scratch.mountPoint };
  const env = fscryptEnvironment(state);
  await context.registry.register({ kind: 'file', path: state.configFile });
  await runChecked(context, 'fscrypt', fscryptArgs.setupGlobal(), { stdin: 'y\n', env });
  const directory = joinPath(scratch.mountPoint, 'fscrypt');
  await context.host.effects.makeDirectory(directory, { mode: 0o700 });
  // fscrypt raw keys are exactly 32 bytes (fscrypt README, "--source=raw_key").
  const keyFile = await writeKeyFile(context, 'fscrypt', 32);
  await context.registry.register({ kind: 'fscrypt-policy', directory, ...state });
  await runChecked(
    context,
    'fscrypt',
    fscryptArgs.encryptWithRawKey(directory, resourceName(context.pid, 'fscrypt'), keyFile),
    { env },
  );
  await context.host.effects.remove(keyFile, { recursive: false });
  const verification = await verifyFscrypt(context, directory, env);
  return {
    backend: 'fscrypt',
    variant: 'fscrypt',
    directory,
    notes: [
      'fscrypt v2 policy, AES-256-XTS contents, same ext4 as the plain run.',
      'Without inline-encryption hardware the kernel serves O_DIRECT on encrypted files through the page cache (kernel fscrypt.rst, "Direct I/O support").',
    ],
    verification,
    mark,
  };
}
