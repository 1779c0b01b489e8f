/**
 * The exact argv (after the tool name) of every command an encrypted-target backend runs. Pure, so tests and a
 * dry run see the same arrays the adapters execute. Secrets never appear here: keys go in a 0600 key file in a
 * private temp directory, passphrases on stdin.
 */

/** Every file, directory, mount and mapping encplan creates starts with this, so `encplan cleanup` finds it. */
export const ENCPLAN_RESOURCE_PREFIX = 'encplan-bench-';

/** The recognisable name of a run's resources: `encplan-bench-<pid>-<suffix>`. */
export function resourceName(pid: number, suffix: string): string {
  return `${ENCPLAN_RESOURCE_PREFIX}${pid}-${suffix}`;
}

/** The pid a resource name was made for, or null when the name is not encplan's. */
export function pidOfResourceName(name: string): number | null {
  const match = new RegExp(`${ENCPLAN_RESOURCE_PREFIX}(\\d+)-`).exec(name);
  return match === null ? null : Number(match[1]);
}

export const losetupArgs = {
  /**
   * `--direct-io=on` so the plain run measures the disk under the sparse image, not the host's page cache
   * (losetup(8) "--direct-io"; on this VM plain SEQ1M reads fell from ~8500 MiB/s of cached data to ~1300).
   */
  attach: (file: string): string[] => ['--find', '--show', '--direct-io=on', '--', file],
  detach: (device: string): string[] => ['--detach', device],
  list: (): string[] => ['--list', '--json', '--output', 'NAME,BACK-FILE'],
};

/**
 * ext4 with the `encrypt` feature (so the plain and the fscrypt directory share one filesystem), inode tables
 * and journal initialised now: lazy init would write in the background during the measurement (mke2fs(8)
 * `-E lazy_itable_init`, `lazy_journal_init`).
 */
export function mkfsExt4Args(device: string): string[] {
  return ['-q', '-F', '-O', 'encrypt', '-E', 'lazy_itable_init=0,lazy_journal_init=0', '--', device];
}

export const mountArgs = {
  mount: (source: string, mountPoint: string): string[] => ['--', source, mountPoint],
  unmount: (mountPoint: string): string[] => ['--', mountPoint],
};

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

export { luks2VariantName, type Luks2Variant } from '../domain/io-benchmark.js';

export const cryptsetupArgs = {
  /**
   * luksFormat with LUKS2's default cipher and 512-bit key (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615). The key is a random
   * 64-byte key file, so the KDF protects nothing: PBKDF2 at cryptsetup's minimum of 1000 iterations keeps
   * formatting instant (cryptsetup(8) `--pbkdf-force-iterations`).
   */
  luksFormat: (container: string, keyFile: string, sectorSizeBytes: number): string[] => [
    'luksFormat',
    '--batch-mode',
    '--type',
    'luks2',
    '--cipher',
    'aes-xts-plain64',
    '--key-size',
    '512',
    '--sector-size',
    String(sectorSizeBytes),
    '--pbkdf',
    'pbkdf2',
    '--pbkdf-force-iterations',
    '1000',
    '--key-file',
    keyFile,
    '--',
    container,
  ],
  /** `--perf-no_*_workqueue` need kernel ≥ 5.9 and cryptsetup ≥ 2.3.4 (Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*). */
  open: (container: string, keyFile: string, mappingName: string, noWorkqueues: boolean): string[] => [
    'open',
    '--type',
    'luks2',
    '--key-file',
    keyFile,
    ...(noWorkqueues ? ['--perf-no_read_workqueue', '--perf-no_write_workqueue'] : []),
    '--',
    container,
    mappingName,
  ],
  close: (mappingName: string): string[] => ['close', mappingName],
};

/** The VeraCrypt variants: kernel dm-crypt, or its own userspace crypto through FUSE (`nokernelcrypto`). */
export interface VeracryptVariant {
  readonly kernelCrypto: boolean;
}

/** Low PIM because the password is random and thrown away; iterations = 15000 + 1000·PIM (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c). */
const VERACRYPT_BENCH_PIM = '1';

export const veracryptArgs = {
  /** Creates an AES/SHA-512 ext4 container non-interactively; the password arrives on stdin (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c CLI). */
  create: (container: string, sizeBytes: number): string[] => [
    '--text',
    '--create',
    container,
    `--size=${sizeBytes}`,
    '--volume-type=normal',
    '--encryption=AES',
    '--hash=SHA-512',
    '--filesystem=ext4',
    `--pim=${VERACRYPT_BENCH_PIM}`,
    '--keyfiles=',
    '--random-source=/dev/urandom',
    '--non-interactive',
    '--stdin',
  ],
  mount: (container: string, mountPoint: string, variant: VeracryptVariant): string[] => [
    '--text',
    '--mount',
    container,
    mountPoint,
    `--pim=${VERACRYPT_BENCH_PIM}`,
    '--keyfiles=',
    '--protect-hidden=no',
    ...(variant.kernelCrypto ? [] : ['--mount-options=nokernelcrypto']),
    '--non-interactive',
    '--stdin',
  ],
  dismount: (container: string): string[] => ['--text', '--dismount', container, '--non-interactive'],
  list: (): string[] => ['--text', '--list', '--verbose', '--non-interactive'],
};

export const dmsetupArgs = {
  /** One mapping's table; dmsetup prints crypt keys only with --showkeys (dmsetup(8)), and the parser drops them. */
  table: (mappingName: string): string[] => ['table', mappingName],
};

/** hdiutil(1) `detach`; the scratch images are made by benchmark-commands/darwin.ts. */
export const hdiutilArgs = {
  detach: (mountPoint: string): string[] => ['detach', mountPoint],
  /** "-force: ignore open files on mounted volumes" (hdiutil(1)): for encplan's own scratch image only. */
  forceDetach: (mountPoint: string): string[] => ['detach', mountPoint, '-force'],
};
