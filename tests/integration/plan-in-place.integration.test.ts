import { spawnSync } from 'node:child_process';
import { createDecipheriv, createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFromAssessment, type Plan, type PlanCommand } from '@encplan/core';
import { runCli } from '../support/cli.js';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';
import { noteSkip } from '../support/skip-reasons.js';

// The in-place path proven by running it (issue 10 item 5): a loop disk with a GPT partition holding ext4 with
// known files is assessed by the built CLI, planned, and the plan's own commands run in order (the destructive
// ones included, as --destructive would). After `cryptsetup reencrypt` the LUKS2 header must match the plan.
// This host's kernel has no device-mapper, so `cryptsetup open` cannot run here: the test says so and checks
// the files by decrypting the data segment in userspace (node:crypto AES-XTS with the volume key) and reading
// the filesystem image with e2fsck and debugfs. The kernel lane (tests/kernel, 60-reencrypt-in-place) opens
// the mapping for real.

const TOOLS = [
  'losetup',
  'sgdisk',
  'mkfs.ext4',
  'partx',
  'cryptsetup',
  'e2fsck',
  'resize2fs',
  'debugfs',
  'mount',
];
const skipReason = loopDeviceSkipReason(TOOLS);
noteSkip(import.meta.url, skipReason);

const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;
const PASSPHRASE = 'correct horse battery staple';
const MIB = 1024 * 1024;
/** The header the plan leaves room for, and where cryptsetup puts the data (rules/strategy.ts). */
const REDUCTION_BYTES = 32 * MIB;
const DATA_OFFSET_BYTES = 16 * MIB;
/** A mapping name of this run only (used where device-mapper exists). */
const MAPPING = `encplan-in-place-${String(process.pid)}`;

interface Luks2Metadata {
  keyslots: Record<string, { key_size: number; kdf: { type: string; memory?: number; cpus?: number } }>;
  segments: Record<string, { type: string; offset: string; encryption: string; sector_size: number }>;
  requirements?: { mandatory?: string[] };
}

function run(argv: readonly string[], input?: string) {
  const [command, ...args] = argv;
  const result = spawnSync(command ?? 'false', args, {
    encoding: 'utf8',
    input,
    env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
    timeout: 240_000,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Decrypts the LUKS2 data segment of `device` into `image` with the volume key: aes-xts-plain64, whose IV is the
 * 512-byte sector number (dm-crypt(8) "plain64"; LUKS2 does not set iv_large_sectors), per encryption sector.
 */
function decryptSegment(device: string, volumeKey: Buffer, sectorBytes: number, image: string): void {
  const size = Number(run(['blockdev', '--getsize64', device]).stdout.trim()) - DATA_OFFSET_BYTES;
  const input = openSync(device, 'r');
  const output = openSync(image, 'w');
  const chunk = Buffer.alloc(4 * MIB);
  try {
    for (let position = 0; position < size; position += chunk.length) {
      const length = readSync(
        input,
        chunk,
        0,
        Math.min(chunk.length, size - position),
        DATA_OFFSET_BYTES + position,
      );
      for (let offset = 0; offset < length; offset += sectorBytes) {
        const iv = Buffer.alloc(16);
        iv.writeBigUInt64LE(BigInt((position + offset) / 512));
        const decipher = createDecipheriv(`aes-${String(volumeKey.length * 4)}-xts`, volumeKey, iv);
        writeSync(
          output,
          Buffer.concat([decipher.update(chunk.subarray(offset, offset + sectorBytes)), decipher.final()]),
        );
      }
    }
  } finally {
    closeSync(input);
    closeSync(output);
  }
}

describe.skipIf(skipReason !== null)(
  'the in-place plan run on a loop disk with ext4 and known files (root)',
  () => {
    let stack: LoopStack;
    let mountpoint = '';
    const known = new Map<string, string>();

    beforeAll(() => {
      // 192 MiB partition: a multiple of 4096, so the plan's 4096-byte sectors apply.
      stack = createLoopStack({ sizeBytes: 256 * MIB, partitionPercent: 75 });
      // A 4096-byte block size, as mkfs.ext4 picks for any filesystem over 512 MiB (mke2fs.conf "small" is 1024):
      // cryptsetup refuses a sector size larger than the ext4 block.
      stack.run('mkfs.ext4', ['-q', '-F', '-b', '4096', stack.partition]);
      mountpoint = path.join(stack.directory, 'mnt');
      mkdirSync(mountpoint);
      stack.run('mount', [stack.partition, mountpoint]);
      for (let index = 1; index <= 5; index += 1) {
        const content = randomBytes(index * MIB);
        writeFileSync(path.join(mountpoint, `file-${String(index)}`), content);
        known.set(`file-${String(index)}`, sha256(content));
      }
      // Left mounted: the plan must unmount it itself.
    });

    afterAll(() => {
      spawnSync('umount', [path.join(stack?.directory ?? '', 'opened')], { env: { PATH: SBIN_PATH } });
      if (existsSync(`/dev/mapper/${MAPPING}`)) {
        spawnSync('cryptsetup', ['close', MAPPING], { env: { PATH: SBIN_PATH } });
      }
      if (mountpoint !== '') {
        spawnSync('umount', [mountpoint], { env: { PATH: SBIN_PATH } });
      }
      stack?.remove();
    });

    it('plans in place, runs the commands up to where the kernel allows, and the header matches the plan', () => {
      const assessed = runCli(['assess', stack.device, '--json']);
      expect(assessed.status, assessed.stderr).toBe(0);
      const plan: Plan = planFromAssessment(JSON.parse(assessed.stdout), {
        mappingName: MAPPING,
        // A shorter key derivation than the 2 s default: this test checks the header, not unlock time.
        unlockTimeMs: 500,
      });
      expect(plan.strategy).toMatchObject({
        kind: 'in-place',
        reductionBytes: REDUCTION_BYTES,
        target: { path: stack.partition, filesystemType: 'ext4', mountpoints: [mountpoint] },
      });
      // The partition is still mounted: the plan unmounts it first (the order of the rest: unit tests).
      expect(plan.commands[0]?.argv).toEqual(['umount', mountpoint]);

      let stoppedAt: PlanCommand | null = null;
      for (const command of plan.commands) {
        if (command.id === 'crypttab-entry') {
          // It appends to this machine's /etc/crypttab: never run by a test. Unit tests check its argv.
          console.log("[plan-in-place] not run: crypttab-entry (it would change this host's /etc/crypttab).");
          continue;
        }
        // As the user's terminal would: the passphrase on stdin, --batch-mode for cryptsetup's "Are you sure?".
        const argv =
          command.argv[0] === 'cryptsetup'
            ? [...command.argv.slice(0, 2), '--batch-mode', ...command.argv.slice(2)]
            : command.argv;
        const result = run(argv, command.stdin === 'passphrase' ? `${PASSPHRASE}\n` : undefined);
        // e2fsck -p exits 1 when it corrected something (e2fsck(8) "EXIT CODE").
        const ok = result.status === 0 || (command.id === 'in-place-fsck' && result.status === 1);
        if (!ok && command.id === 'luks-open' && /device-mapper|dm_|Cannot initialize/i.test(result.stderr)) {
          stoppedAt = command;
          console.log(
            `[plan-in-place] stopped at ${command.id} (${command.argv.slice(0, 2).join(' ')}): this kernel has no device-mapper (${result.stderr.trim()}); ${plan.commands
              .slice(plan.commands.indexOf(command) + 1)
              .map((c) => c.id)
              .join(', ')} not run. The files are checked by userspace decryption below.`,
          );
          break;
        }
        expect(ok, `${command.id}: ${command.argv.join(' ')}\n${result.stderr}`).toBe(true);
      }

      // The header cryptsetup wrote, against the plan.
      const dump = run(['cryptsetup', 'luksDump', '--dump-json-metadata', stack.partition]);
      expect(dump.status, dump.stderr).toBe(0);
      const metadata = JSON.parse(dump.stdout) as Luks2Metadata;
      const segments = Object.values(metadata.segments);
      // Finished: one crypt segment, no reencryption requirement left in the header.
      expect(segments).toHaveLength(1);
      expect(metadata.requirements?.mandatory ?? []).toEqual([]);
      const segment = segments[0];
      expect(segment?.type).toBe('crypt');
      expect(segment?.encryption).toBe(plan.settings.cipher);
      expect(segment?.sector_size).toBe(plan.settings.sectorSizeBytes);
      // The data start after the 16 MiB header, half the 32 MiB reduction (cryptsetup 2.6.1 measured).
      expect(Number(segment?.offset)).toBe(DATA_OFFSET_BYTES);
      const keyslot = Object.values(metadata.keyslots)[0];
      expect((keyslot?.key_size ?? 0) * 8).toBe(plan.settings.keySizeBits);
      expect(keyslot?.kdf.type).toBe('argon2id');
      const pbkdf = plan.settings.luks2Pbkdf;
      // cryptsetup lowers --pbkdf-parallel to the CPUs online (cryptsetup(8) --pbkdf-parallel); with --iter-time
      // it may lower the memory to meet the time, so the plan's memory is the cap.
      expect(keyslot?.kdf.cpus).toBe(Math.min(pbkdf?.parallel ?? 0, availableParallelism()));
      expect(keyslot?.kdf.memory).toBeLessThanOrEqual(pbkdf?.memoryKiB ?? 0);
      expect(run(['cryptsetup', 'luksDump', stack.partition]).stdout).toMatch(/^Label:\s+encplan$/m);

      if (stoppedAt === null) {
        // device-mapper exists here: the files through the opened (and grown) volume.
        const opened = path.join(stack.directory, 'opened');
        mkdirSync(opened);
        stack.run('mount', ['-o', 'ro', `/dev/mapper/${MAPPING}`, opened]);
        for (const [name, digest] of known) {
          expect(sha256(readFileSync(path.join(opened, name))), name).toBe(digest);
        }
        console.log(
          `[plan-in-place] ${String(known.size)} known files intact through /dev/mapper/${MAPPING}.`,
        );
      }
      // The files, read back without device-mapper: the volume key (passphrase on stdin), userspace AES-XTS.
      if (stoppedAt !== null) {
        if (!plan.settings.cipher.startsWith('aes-xts-plain64')) {
          console.log(
            `[plan-in-place] files not checked: userspace decryption here covers aes-xts only, not ${plan.settings.cipher}.`,
          );
          return;
        }
        const keyFile = path.join(stack.directory, 'volume-key');
        const keyDump = run(
          [
            'cryptsetup',
            'luksDump',
            '--dump-volume-key',
            '--volume-key-file',
            keyFile,
            '--batch-mode',
            stack.partition,
          ],
          `${PASSPHRASE}\n`,
        );
        expect(keyDump.status, keyDump.stderr).toBe(0);
        const image = path.join(stack.directory, 'decrypted.img');
        decryptSegment(stack.partition, readFileSync(keyFile), plan.settings.sectorSizeBytes ?? 512, image);
        const fsck = run(['e2fsck', '-fn', image]);
        expect(fsck.status, fsck.stdout + fsck.stderr).toBe(0);
        for (const [name, digest] of known) {
          const out = path.join(stack.directory, `${name}.out`);
          const dumped = run(['debugfs', '-R', `dump /${name} ${out}`, image]);
          expect(dumped.status, dumped.stderr).toBe(0);
          expect(sha256(readFileSync(out)), name).toBe(digest);
        }
        console.log(
          `[plan-in-place] ${String(known.size)} known files intact (checked by userspace decryption).`,
        );
      }
    }, 300_000);
  },
);
