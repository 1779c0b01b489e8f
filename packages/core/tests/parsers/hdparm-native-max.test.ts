import { describe, expect, it } from 'vitest';
import { parseHdparmNativeMax } from '../../src/parsers/hdparm/parse-hdparm-native-max.js';
import { fixture, fixtureCommand } from '../support/fixtures.js';

describe('parseHdparmNativeMax', () => {
  it('reads a drive whose HPA hides 2113 sectors (the first device block with an HPA line)', () => {
    const text = fixture('hdparm-n/sata-hpa-enabled-and-disabled-two-drives/stdout');
    const [sda, sdb] = text.split('\n\n').filter((block) => block.includes('max sectors'));
    expect(parseHdparmNativeMax(sda!, 512)).toEqual({
      visibleSectors: 312_581_808,
      nativeMaxSectors: 312_581_808,
      enabled: false,
      hiddenBytes: 0,
    });
    expect(parseHdparmNativeMax(sdb!, 512)).toEqual({
      visibleSectors: 312_579_695,
      nativeMaxSectors: 312_581_808,
      enabled: true,
      hiddenBytes: 2113 * 512,
    });
  });

  it('reads the enabled HPA of the Forensics Wiki example', () => {
    expect(
      parseHdparmNativeMax(fixture('hdparm-n/sata-hpa-enabled-forensics-wiki/stdout'), 512),
    ).toMatchObject({ enabled: true, hiddenBytes: (586_072_368 - 586_070_255) * 512 });
  });

  it('fails closed on a virtio disk, where hdparm prints nothing and exits 1', () => {
    expect(fixtureCommand('hdparm-n/virtio-not-permitted-debian12').exitCode).toBe(1);
    expect(() =>
      parseHdparmNativeMax(fixture('hdparm-n/virtio-not-permitted-debian12/stdout'), 512),
    ).toThrowError(expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }));
  });
});
