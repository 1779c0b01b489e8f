import { describe, expect, it } from 'vitest';
import { assessBundle, toolNotFound, type EncplanError } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const original: Bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));

/** Assesses the real bundle with every run of `tool` replaced by the failure a broken machine would give. */
function assessWithFailure(tool: string, { code, message }: Pick<EncplanError, 'code' | 'message'>) {
  const bundle: Bundle = {
    ...original,
    captures: original.captures.map((capture) =>
      capture.kind === 'command' && capture.tool === tool
        ? { ...capture, output: null, error: { code, message } }
        : capture,
    ),
  };
  return assessBundle(bundle, clock);
}

describe('assess when tools are missing or hang', () => {
  it('turns a hanging sfdisk into a TOOL_TIMED_OUT warning and a partial status, not a crash', async () => {
    const envelope = await assessWithFailure('sfdisk', {
      code: 'TOOL_TIMED_OUT',
      message: 'sfdisk did not finish within 15000 ms.',
    });
    expect(envelope.status).toBe('partial');
    expect(envelope.warnings).toContainEqual(
      expect.objectContaining({
        code: 'TOOL_TIMED_OUT',
        source: 'sfdisk',
        message: expect.stringContaining('Reading the partition table'),
      }),
    );
    // Without the table, partitions still come from lsblk and sysfs.
    expect(envelope.result?.partitions).toEqual([
      expect.objectContaining({ path: '/dev/loop0p1', startBytes: 1_048_576 }),
    ]);
  });

  it('turns a missing blkid into a TOOL_MISSING warning and reports the filesystem as unknown', async () => {
    const envelope = await assessWithFailure('blkid', toolNotFound('blkid'));
    expect(envelope.status).toBe('partial');
    expect(envelope.warnings).toContainEqual(
      expect.objectContaining({ code: 'TOOL_MISSING', source: 'blkid' }),
    );
    expect(envelope.result?.partitions?.[0]?.filesystem).toBeNull();
  });

  it('makes a missing lsblk fatal: without it there is no disk to describe', async () => {
    await expect(assessWithFailure('lsblk', toolNotFound('lsblk'))).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
    });
  });
});

describe("assess on a disk whose raw device cannot be opened (real bundle of this VM's root disk)", () => {
  const rootDisk: Bundle = parseBundle(
    JSON.parse(fixture('bundles/virtio-root-no-table-blkid-eperm-debian12/bundle.json')),
  );

  it('never reports a mounted disk without a readable table as unallocated, and never advises discarding it', async () => {
    const envelope = await assessBundle(rootDisk, clock);
    const result = envelope.result!;
    expect(result.disk).toMatchObject({
      path: '/dev/vda',
      transport: 'virtio',
      isSystemDisk: true,
      partitionTable: 'none',
    });
    expect(result.space).toMatchObject({ unallocatedBytes: 0, regions: [] });
    expect(JSON.stringify(result.overProvisioning?.advice)).not.toContain('blkdiscard');
    expect(envelope.warnings).toContainEqual(
      expect.objectContaining({
        code: 'TOOL_FAILED',
        source: 'blkid',
        message: expect.stringContaining('Operation not permitted'),
      }),
    );
  });
});
