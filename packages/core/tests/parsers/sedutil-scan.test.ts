import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSedutilScan } from '../../src/parsers/sedutil/scan.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/sedutil');
const scan = (name: string) =>
  parseSedutilScan(readFileSync(path.join(FIXTURES, name, 'stdout.txt'), 'utf8'));

describe('sedutil-cli --scan from real captures', () => {
  it('reads Opal 2, a non-SED and an Enterprise drive whose flag sits alone in its column', () => {
    expect(
      scan('scan-sata-opal2-and-enterprise').map(({ device, flags, opal2, enterprise, model }) => ({
        device,
        flags,
        opal2,
        enterprise,
        model,
      })),
    ).toEqual([
      {
        device: '/dev/nvme0',
        flags: '2',
        opal2: true,
        enterprise: false,
        model: 'Samsung SSD 970 EVO Plus 2TB',
      },
      {
        device: '/dev/sda',
        flags: 'No',
        opal2: false,
        enterprise: false,
        model: 'Samsung SSD 840 PRO Series',
      },
      // One space between the flag column and the model (sedutil issue #423): the flag is E, not part of the model.
      { device: '/dev/sdb', flags: 'E', opal2: false, enterprise: true, model: 'ST16000NM003G-2KH113' },
    ]);
  });

  it('reads a Pyrite-only drive (Corsair MP400, flag P)', () => {
    expect(scan('scan-nvme-pyrite-corsair-mp400')).toEqual([
      expect.objectContaining({ device: '/dev/nvme3n1', flags: 'P', pyrite: true, opal2: false }),
    ]);
  });
});
