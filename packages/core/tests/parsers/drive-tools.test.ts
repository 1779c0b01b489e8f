import { describe, expect, it } from 'vitest';
import { assessHealth } from '../../src/analyses/health.js';
import { parseNvmeSmartLog } from '../../src/parsers/nvme/smart-log.js';
import { nvmeCapacityOf } from '../../src/analyses/drive-sections.js';
import { parseCrypttab } from '../../src/parsers/crypttab/crypttab.js';
import { parseDmsetupTable } from '../../src/parsers/dmsetup/table.js';
import { parseHdparmIdentify } from '../../src/parsers/hdparm/identify.js';
import { parseLsblkDiscard } from '../../src/parsers/lsblk/discard-table.js';
import { parseNvmeIdCtrl } from '../../src/parsers/nvme/id-ctrl.js';
import { parseNvmeIdNs } from '../../src/parsers/nvme/id-ns.js';
import { parseNvmeList } from '../../src/parsers/nvme/list.js';
import { parseSedutilScan } from '../../src/parsers/sedutil/scan.js';
import { checkParserProperties } from '../../../../tests/support/parser-properties.js';
import { fixture } from '../support/fixtures.js';

const SMART_LOG_211 = fixture('nvme/smart-log-v2.11-seagate-firecuda530-30pct-used/stdout.json');
const SMART_LOG_23 = fixture('nvme/smart-log-v2.3-seagate-firecuda530/stdout.json');
const ID_CTRL = fixture('nvme/id-ctrl-wdc-sn730-256g/stdout.json');
const LIST = fixture('nvme/list-v2.11-4x-firecuda530/stdout.json');
const HDPARM_INTEL = fixture('hdparm/sata-ssd-intel-545s-ssdsc2kw512g8-rzat/stdout.txt');
const HDPARM_TESLA = fixture('hdparm/sata-ssd-noname-tesla-2tb-trim-no-rzat-crlf/stdout.txt');
const DMSETUP = fixture('dmsetup/crypt-luks2-keyring-allow-discards-sata-ssd/stdout.txt');

describe('parseNvmeSmartLog', () => {
  it('reads nvme-cli 2.11 (critical_warning object, Kelvin temperature) into a 30 % used drive', () => {
    const facts = parseNvmeSmartLog(SMART_LOG_211);
    expect(facts.nvme?.criticalWarning).toEqual({ value: 0, field: 'critical_warning.value' });
    expect(facts.nvme?.temperatureCelsius?.value).toBe(51);
    const health = assessHealth(facts);
    expect(health).toMatchObject({
      source: 'nvme-cli',
      verdict: 'healthy',
      dataWrittenBytesExact: String(1928683480n * 512000n),
      percentageUsed: 30,
      // 24424 h for 30 %: the remaining 70 % take 24424 · 70 / 30 h ≈ 6.5 years.
      estimatedRemainingLifeYears: 6.5,
      powerOnHours: 24424,
      unsafeShutdowns: 49,
    });
    expect(health.findings.find((f) => f.id === 'temperature-high')?.value).toBe(51);
  });

  it('reads nvme-cli 2.3 (flat critical_warning) the same way', () => {
    const health = assessHealth(parseNvmeSmartLog(SMART_LOG_23));
    expect(health).toMatchObject({
      verdict: 'healthy',
      percentageUsed: 2,
      temperatureCelsius: 37,
      powerOnHours: 4974,
    });
  });

  it('fails a drive whose critical warning says the spare is gone', () => {
    const document = { ...JSON.parse(SMART_LOG_23), critical_warning: 1, avail_spare: 3 };
    const health = assessHealth(parseNvmeSmartLog(JSON.stringify(document)));
    expect(health.verdict).toBe('failing');
    expect(health.findings.filter((f) => f.severity === 'failing').map((f) => f.id)).toEqual([
      'nvme-critical-warning',
      'nvme-available-spare-below-threshold',
    ]);
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(parseNvmeSmartLog, SMART_LOG_211, {
      truncated: (facts) => expect(facts.nvme?.percentageUsed?.value).toBe(30),
      hostile: (facts) => expect(facts.nvme).not.toBeNull(),
    });
  });
});

describe('parseNvmeIdCtrl', () => {
  it('reads capacity, TRIM (ONCS bit 2) and Security Send/Receive (OACS bit 0) of the WDC SN730', () => {
    const ctrl = parseNvmeIdCtrl(ID_CTRL);
    expect(ctrl).toMatchObject({
      model: 'WDC PC SN730 SDBQNTY-256G-1001',
      totalCapacityBytes: 256060514304,
      unallocatedCapacityBytes: 0,
      namespaceCount: 1,
      oacs: 23,
      oncs: 95,
      writeZeroesSupported: true,
    });
    expect(ctrl.trim.supported).toBe(true);
    expect(ctrl.security).toMatchObject({ nvmeSecuritySendReceive: true, nvmeNamespaceManagement: false });
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(parseNvmeIdCtrl, ID_CTRL, { truncated: (ctrl) => expect(ctrl.oacs).toBe(23) });
  });
});

describe('parseNvmeIdNs', () => {
  it('survives hostile and huge input with typed errors (no captured id-ns output exists in the corpus)', () => {
    checkParserProperties(parseNvmeIdNs, null, {
      hostile: (ns) => expect(['not-reported', 'zeroes', 'ones', 'reserved']).toContain(ns.deallocatedReads),
    });
  });
});

describe('parseNvmeList', () => {
  it('lists every namespace of the nested nvme-cli 2.11 layout (the file holds three, not the four its name says)', () => {
    const entries = parseNvmeList(LIST);
    expect(entries.map((e) => e.namespacePath)).toEqual(['/dev/nvme0n1', '/dev/nvme1n1', '/dev/nvme2n1']);
    expect(entries[0]).toMatchObject({
      controller: 'nvme0',
      model: 'Seagate FireCuda 530 ZP4000GM30023',
      sizeBytes: 4000787030016,
      sectorBytes: 512,
    });
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(parseNvmeList, LIST, { truncated: (entries) => expect(entries).toHaveLength(3) });
  });
});

describe('parseHdparmIdentify', () => {
  it('finds TRIM with deterministic zeroed reads and a frozen security state on the Intel 545s', () => {
    const identify = parseHdparmIdentify(HDPARM_INTEL);
    expect(identify).toMatchObject({ model: 'INTEL SSDSC2KW512G8', rotational: false, trimLimitBlocks: 8 });
    expect(identify.trim).toMatchObject({ supported: true, deterministic: true, zeroed: true });
    expect(identify.security.ataSecurity).toMatchObject({
      supported: true,
      enabled: false,
      locked: false,
      frozen: true,
      enhancedErase: true,
    });
  });

  it('reads the CRLF, space-indented TESLA dump: TRIM without deterministic reads', () => {
    const identify = parseHdparmIdentify(HDPARM_TESLA);
    expect(identify).toMatchObject({ model: 'TESLA', firmware: 'V0609B0', rotational: false });
    expect(identify.trim).toMatchObject({ supported: true, deterministic: false, zeroed: false });
    expect(identify.security.ataSecurity?.frozen).toBe(true);
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(parseHdparmIdentify, HDPARM_INTEL, {
      truncated: (identify) => expect(identify.model).not.toBeNull(),
    });
  });
});

describe('parseDmsetupTable', () => {
  it.each([
    {
      title: 'the LUKS2 mapping with allow_discards',
      text: DMSETUP,
      line: { name: 'debian_crypt', startSector: 0, lengthSectors: 463583232, target: 'crypt' },
      crypt: { device: '8:19', options: ['allow_discards'], allowDiscards: true, sectorSizeBytes: null },
    },
    {
      title: 'a real kernel’s LUKS2 mapping with 4096-byte sectors and no workqueues (kernel lane, QEMU)',
      text: fixture('dmsetup/qemu-debian12-kernel6.1-luks2-s4096-no-workqueues/stdout.txt'),
      line: {
        name: 'encplan-bench-817-luks2-s4096-nowq',
        startSector: 0,
        lengthSectors: 393216,
        target: 'crypt',
      },
      crypt: {
        device: '7:1',
        options: ['no_read_workqueue', 'no_write_workqueue', 'sector_size:4096'],
        allowDiscards: false,
        sectorSizeBytes: 4096,
      },
    },
  ])('decodes $title and drops the key reference', ({ text, line: expected, crypt }) => {
    const [line] = parseDmsetupTable(text);
    expect(line).toMatchObject(expected);
    expect(line?.crypt).toEqual({
      cipher: 'aes-xts-plain64',
      keyKind: 'keyring',
      offsetSectors: 32768,
      ...crypt,
    });
    expect(JSON.stringify(line)).not.toContain('logon');
  });

  it('decodes a real kernel’s stacks: LUKS2 with and without allow_discards, LVM both ways, TCRYPT (kernel lane)', () => {
    const lines = parseDmsetupTable(
      fixture('dmsetup/qemu-debian12-kernel6.1-stacks-luks2-lvm-tcrypt/stdout.txt'),
    );
    const byName = new Map(lines.map((line) => [line.name, line]));
    expect([...byName.keys()]).toEqual([
      'lane-discards',
      'lane-luks-in-lvm',
      'lane-lvm-crypt',
      'lane-nodiscards',
      'lane-tcrypt',
      'lanevg-lanelv',
      'lanevg2-cryptlv',
    ]);
    expect(byName.get('lanevg-lanelv')).toMatchObject({ target: 'linear', lengthSectors: 131_072 });
    expect(byName.get('lane-discards')?.crypt).toMatchObject({ keyKind: 'keyring', allowDiscards: true });
    expect(byName.get('lane-luks-in-lvm')?.crypt).toMatchObject({ device: '253:4', allowDiscards: false });
    expect(byName.get('lane-nodiscards')?.crypt).toMatchObject({
      allowDiscards: false,
      sectorSizeBytes: 4096,
    });
    // TCRYPT: a hex key (printed as zeros), IV offset 256, data from sector 256 of the partition.
    expect(byName.get('lane-tcrypt')?.crypt).toMatchObject({
      cipher: 'aes-xts-plain64',
      device: '254:5',
      offsetSectors: 256,
      allowDiscards: true,
    });
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(parseDmsetupTable, DMSETUP, {
      hostile: (lines) => {
        for (const line of lines) {
          expect(JSON.stringify(line)).not.toMatch(/:64:logon/);
        }
      },
    });
  });
});

describe('parseCrypttab and parseSedutilScan', () => {
  it('never crash on hostile input (no captured crypttab or sedutil output exists in the corpus)', () => {
    checkParserProperties(parseCrypttab, null, {
      hostile: (entries) => {
        for (const entry of entries) {
          expect(entry.discard).toBe(
            entry.options.includes('discard') || entry.options.includes('allow-discards'),
          );
        }
      },
    });
    checkParserProperties(parseSedutilScan, null);
  });
});

describe('parseLsblkDiscard', () => {
  it('reads the ASCII tree of util-linux 2.30 with binary suffixes', () => {
    const rows = parseLsblkDiscard(fixture('lsblk/lsblk-discard-sata-ssd-hdd-nvme-utillinux2.30/stdout.txt'));
    expect(rows.find((r) => r.name === 'nvme0n1p2')).toEqual({
      name: 'nvme0n1p2',
      depth: 1,
      parent: 'nvme0n1',
      alignmentBytes: 0,
      granularityBytes: 512,
      maxBytes: 2 ** 41,
    });
    expect(rows.find((r) => r.name === 'sdb1')).toMatchObject({ granularityBytes: 0, maxBytes: 0 });
  });

  it('reads the UTF-8 tree and the same LV under four loop parents', () => {
    const lvm = parseLsblkDiscard(fixture('lsblk/lsblk-discard-lvm-on-loop-utillinux2.30/stdout.txt'));
    expect(lvm.filter((r) => r.name === 'vg_foo.4059-lv_foo.4059').map((r) => r.parent)).toEqual([
      'loop0',
      'loop1',
      'loop2',
      'loop3',
    ]);
    const luks = parseLsblkDiscard(fixture('lsblk/lsblk-discard-sata-ssd-luks-lvm-after-discard/stdout.txt'));
    expect(luks.find((r) => r.name === 'goodram_ssd-home')).toMatchObject({
      depth: 3,
      parent: 'debian_crypt',
      maxBytes: 2 ** 31,
    });
  });

  it('survives truncated, hostile and huge input with typed errors', () => {
    checkParserProperties(
      parseLsblkDiscard,
      fixture('lsblk/lsblk-discard-sata-ssd-luks-lvm-before-discard/stdout.txt'),
    );
  });
});

describe('nvmeCapacityOf', () => {
  it('turns Identify Controller into the space section NVMe capacity: no namespace management on the SN730', () => {
    expect(nvmeCapacityOf({ nvmeIdCtrl: parseNvmeIdCtrl(ID_CTRL), nvmeIdNs: null })).toEqual({
      totalCapacityBytes: 256060514304,
      unallocatedCapacityBytes: 0,
      namespaceSizeBytes: null,
      namespaceManagementSupported: false,
      namespaceUtilizationBytes: null,
    });
    expect(nvmeCapacityOf({ nvmeIdCtrl: null, nvmeIdNs: null })).toBeNull();
  });
});
