import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { parseBlkidExport, parseBlkidExportDevices } from '../../src/parsers/blkid/parse-blkid-export.js';
import { parseSfdiskJson } from '../../src/parsers/sfdisk/parse-sfdisk-json.js';
import { fixture, fixtureCommand } from '../support/fixtures.js';

describe('parseBlkidExportDevices', () => {
  it('splits one blkid call over a disk and its partitions into a probe per device; a blank device prints none', () => {
    const command = fixtureCommand('blkid/loop-multi-gpt-ext4-and-blank');
    const probes = parseBlkidExportDevices(fixture('blkid/loop-multi-gpt-ext4-and-blank/stdout'));
    expect([...probes.keys()]).toEqual(['/dev/loop0', '/dev/loop0p1', '/dev/loop0p2']);
    expect(command.argv).toContain('/dev/loop1');
    expect(probes.get('/dev/loop0')).toMatchObject({ partitionTableType: 'gpt', type: null });
    expect(probes.get('/dev/loop0p1')).toMatchObject({ type: 'ext4', version: '1.0', usage: 'filesystem' });
    expect(probes.get('/dev/loop0p2')).toMatchObject({ type: null, partitionTableType: null });
    expect(probes.get('/dev/loop0p2')?.values.PART_ENTRY_NUMBER).toBe('2');
  });
});

describe('parseBlkidExport', () => {
  it('reads an ext4 filesystem inside a GPT partition', () => {
    const probe = parseBlkidExport(fixture('blkid/loop-gpt-partition-ext4/stdout'));
    expect(probe).toMatchObject({
      type: 'ext4',
      version: '1.0',
      usage: 'filesystem',
      uuid: 'f35f9b62-f8ab-48fd-b42d-33bb1790c4a3',
    });
    expect(probe.values.PART_ENTRY_OFFSET).toBe('2048');
  });

  it('reads the partition table type of a whole disk', () => {
    expect(parseBlkidExport(fixture('blkid/loop-gpt-disk/stdout'))).toMatchObject({
      type: null,
      partitionTableType: 'gpt',
    });
  });

  it('answers "nothing found" for the empty output of exit status 2', () => {
    expect(fixtureCommand('blkid/loop-empty-nothing-found').exitCode).toBe(2);
    expect(parseBlkidExport(fixture('blkid/loop-empty-nothing-found/stdout'))).toMatchObject({
      type: null,
      partitionTableType: null,
    });
  });
});

describe('parseSfdiskJson', () => {
  it('reads the usable LBA range and partitions of a GPT', () => {
    expect(parseSfdiskJson(fixture('sfdisk/loop-gpt-one-partition/stdout'))).toEqual({
      label: 'gpt',
      sectorBytes: 512,
      firstUsableSector: 34,
      lastUsableSector: 2_097_118,
      partitions: [
        {
          node: '/dev/loop0p1',
          startSectors: 2048,
          sizeSectors: 1_634_304,
          type: '0FC63DAF-8483-4772-8E79-3D69D8477DE4',
          uuid: '238F1784-2E3B-41BC-A414-A9DD44695CFD',
          name: null,
        },
      ],
    });
  });

  it('rejects the empty output sfdisk gives for a disk without a table', () => {
    expect(fixtureCommand('sfdisk/loop-no-partition-table').exitCode).toBe(1);
    expect(() => parseSfdiskJson(fixture('sfdisk/loop-no-partition-table/stdout'))).toThrowError(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
  });

  it('never crashes on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          parseSfdiskJson(text);
        } catch (error) {
          expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
        }
      }),
    );
  });
});
