import type { FileEncryption } from '../../domain/storage-model.js';
import { parseFscryptStatus } from '../../parsers/fscrypt/parse-fscrypt-status.js';
import { parseProcMounts, type ProcMountEntry } from '../../parsers/proc/mountinfo.js';
import { tryRun, type ProbeContext } from '../probe-context.js';

const TIMEOUT_MS = 15_000;
/** At most this many home folders are asked about (one `fscrypt status` each). */
const MAX_HOMES = 64;

/** The mount point of `mounts` that holds `path` (the longest prefix), or null. */
function mountOf(path: string, mounts: readonly string[]): string | null {
  const holding = mounts.filter((mount) => mount === '/' || path === mount || path.startsWith(`${mount}/`));
  return holding.sort((a, b) => b.length - a.length)[0] ?? null;
}

function option(entry: ProcMountEntry, name: string): string | null {
  const found = entry.options.find((value) => value.startsWith(`${name}=`));
  return found === undefined ? null : found.slice(name.length + 1);
}

/**
 * File-level encryption on the filesystems of one disk: eCryptfs mounts whose lower directory lies on one of
 * them (/proc/self/mounts: `ecryptfs_cipher`, `ecryptfs_key_bytes`; ecryptfs(7)), and fscrypt-encrypted home
 * folders (`fscrypt status /home/USER`, when fscrypt is installed). `diskMounts` are the disk's mount points; a
 * folder is on this disk when the block filesystem holding it (longest mount prefix) is one of them, so a /home
 * on another disk is not counted on this one.
 */
export async function probeFileEncryption(
  context: ProbeContext,
  diskMounts: readonly string[],
): Promise<readonly FileEncryption[]> {
  const mounts = parseProcMounts((await context.host.readText('/proc/self/mounts')) ?? '');
  // Filesystems on block devices (this disk's or another's) hold folders; an eCryptfs mount over its own
  // lower folder (/home/alice/.Private under /home/alice) does not.
  const blockMounts = [
    ...new Set([
      ...diskMounts,
      ...mounts.filter((entry) => entry.source.startsWith('/dev/')).map((entry) => entry.mountPoint),
    ]),
  ];
  const onDisk = (path: string): string | null => {
    const holder = mountOf(path, blockMounts);
    return holder !== null && diskMounts.includes(holder) ? holder : null;
  };
  const found: FileEncryption[] = [];
  for (const entry of mounts.filter((candidate) => candidate.fsType === 'ecryptfs')) {
    const volumeMount = onDisk(entry.source);
    if (volumeMount === null) {
      continue;
    }
    const keyBytes = Number(option(entry, 'ecryptfs_key_bytes'));
    found.push({
      kind: 'ecryptfs',
      directory: entry.mountPoint,
      lowerDirectory: entry.source,
      volumeMount,
      cipher: option(entry, 'ecryptfs_cipher'),
      keyBits: Number.isInteger(keyBytes) && keyBytes > 0 ? keyBytes * 8 : null,
      unlocked: true,
      source: '/proc/self/mounts',
    });
  }
  // The home folders first: a bundle from before this probe answers nothing here, so it asks nothing more.
  const homes = ((await context.host.listDir('/home')) ?? []).slice(0, MAX_HOMES);
  if (homes.length === 0 || (await context.host.whichTool('fscrypt')) === null) {
    return found;
  }
  for (const name of homes) {
    const directory = `/home/${name}`;
    const volumeMount = onDisk(directory);
    if (volumeMount === null || found.some((entry) => entry.directory === directory)) {
      continue;
    }
    const output = await tryRun(
      context,
      { tool: 'fscrypt', args: ['status', '--', directory], timeoutMs: TIMEOUT_MS },
      `Asking fscrypt whether ${directory} is encrypted`,
    );
    // fscrypt exits 1 with "is not encrypted" on stderr for a plain directory (fixtures/fscrypt).
    const status = output === null || output.exitCode !== 0 ? null : parseFscryptStatus(output.stdout);
    if (status?.encrypted === true) {
      found.push({
        kind: 'fscrypt',
        directory,
        lowerDirectory: null,
        volumeMount,
        cipher: status.contentsMode,
        keyBits: null,
        unlocked: status.unlocked,
        source: 'fscrypt status',
      });
    }
  }
  return found;
}
