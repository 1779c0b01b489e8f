import { describe, expect, it } from 'vitest';
import { STANDARD_PROFILES } from '@encplan/core';
import { FIO_MODES, SWEEP_PROFILES, buildFioArgs, chooseFioAccess } from '../../src/plan/fio-jobs.js';

describe('fio job plan', () => {
  it('has the CrystalDiskMark default set in both directions', () => {
    expect(STANDARD_PROFILES.map((p) => p.id)).toEqual(
      ['read', 'write'].flatMap((direction) =>
        ['seq1m-q8t1', 'seq1m-q1t1', 'rnd4k-q32t1', 'rnd4k-q1t1'].map((profile) => `${profile}-${direction}`),
      ),
    );
    expect(STANDARD_PROFILES[2]).toMatchObject({
      label: 'RND4K Q32T1',
      blockSizeBytes: 4096,
      queueDepth: 32,
      threads: 1,
    });
  });

  it('sweeps block sizes from 512 B to 64 MiB like ATTO', () => {
    const reads = SWEEP_PROFILES.filter((p) => p.direction === 'read').map((p) => p.blockSizeBytes);
    expect(reads[0]).toBe(512);
    expect(reads.at(-1)).toBe(64 * 1024 * 1024);
    expect(reads).toHaveLength(18);
    expect(SWEEP_PROFILES.find((p) => p.blockSizeBytes === 512)?.label).toBe('SEQ512B Q4T1');
  });

  it('builds the exact fio argv for a sequential write with libaio and O_DIRECT', () => {
    const args = buildFioArgs({
      profile: STANDARD_PROFILES[4]!,
      filePath: '/scratch/plain/encplan.fio',
      outputPath: '/scratch/out.json',
      access: { ioEngine: 'libaio', directIo: true },
      settings: FIO_MODES.quick,
    });
    expect(args).toEqual([
      '--name=seq1m-q8t1-write',
      '--filename=/scratch/plain/encplan.fio',
      '--size=67108864',
      '--rw=write',
      '--bs=1048576',
      '--iodepth=8',
      '--numjobs=1',
      '--group_reporting=1',
      '--ioengine=libaio',
      '--direct=1',
      '--time_based=1',
      '--runtime=1',
      '--randrepeat=0',
      '--refill_buffers=1',
      '--end_fsync=1',
      '--output-format=json',
      '--output=/scratch/out.json',
    ]);
  });

  it('passes once over a cold file instead of looping for the runtime where O_DIRECT is buffered (fscrypt)', () => {
    const job = {
      profile: STANDARD_PROFILES[0]!,
      filePath: '/scratch/plain/fscrypt/encplan.fio',
      outputPath: '/scratch/out.json',
      access: { ioEngine: 'libaio' as const, directIo: true },
      settings: FIO_MODES.quick,
    };
    const looped = buildFioArgs(job);
    const once = buildFioArgs({ ...job, onePass: true });
    expect(looped).toContain('--time_based=1');
    expect(once).not.toContain('--time_based=1');
    expect(once).toEqual(expect.arrayContaining(['--time_based=0', '--invalidate=1', '--runtime=1']));
  });

  it('falls back to psync without O_DIRECT and says so', () => {
    const access = chooseFioAccess('linux', false);
    expect(access).toMatchObject({ ioEngine: 'psync', directIo: false });
    expect(access.note).toMatch(/O_DIRECT/);
    expect(chooseFioAccess('linux', true)).toEqual({ ioEngine: 'libaio', directIo: true, note: null });
    expect(chooseFioAccess('darwin', true).ioEngine).toBe('posixaio');
  });

  it('keeps the quick mode of plain plus one encrypted target near 30 s at 1.9 s of wall time per fio run', () => {
    const { runtimeSeconds, repeats } = FIO_MODES.quick;
    const fioRuns = 2 * STANDARD_PROFILES.length * repeats;
    expect(fioRuns * (runtimeSeconds + 0.9)).toBeLessThanOrEqual(35);
    expect(FIO_MODES.full.repeats).toBe(5);
  });
});
