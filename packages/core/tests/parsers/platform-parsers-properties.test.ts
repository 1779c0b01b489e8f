import { describe, it } from 'vitest';
import { parseCrystalDiskMarkText } from '../../src/parsers/crystaldiskmark/parse-crystaldiskmark-text.js';
import { parseDiskspdText } from '../../src/parsers/diskspd/parse-diskspd-text.js';
import { parseDiskutilApfsList } from '../../src/parsers/diskutil/parse-diskutil-apfs-list.js';
import { parseDiskutilInfo } from '../../src/parsers/diskutil/parse-diskutil-info.js';
import { parseDiskutilList } from '../../src/parsers/diskutil/parse-diskutil-list.js';
import { parseFdesetupStatus } from '../../src/parsers/fdesetup/parse-fdesetup-status.js';
import { parseDisableDeleteNotify } from '../../src/parsers/fsutil/parse-disable-delete-notify.js';
import { parseManageBdeStatus } from '../../src/parsers/manage-bde/parse-manage-bde-status.js';
import { parseWindowsStorageJson } from '../../src/parsers/powershell/parse-storage-json.js';
import { parseSysctlCpu } from '../../src/parsers/sysctl/parse-sysctl-cpu.js';
import {
  parseSystemProfilerJson,
  parseSystemProfilerXml,
} from '../../src/parsers/system-profiler/parse-system-profiler.js';
import {
  checkHostileInputs,
  checkHugeInput,
  checkTruncations,
} from '../../../../tests/support/parser-properties.js';
import { fixture } from '../support/fixtures.js';

/** Every macOS/Windows parser with the real captures it is tested on. */
const CASES: readonly { name: string; parse: (text: string) => unknown; captures: readonly string[] }[] = [
  {
    name: 'diskutil info',
    parse: parseDiskutilInfo,
    captures: [
      'diskutil/info-plist-intel-catalina-disk1s1-data-filevault/stdout.plist',
      'diskutil/info-plist-external-usb-hdd-hfsplus-5tb/stdout.plist',
    ],
  },
  {
    name: 'diskutil apfs list',
    parse: parseDiskutilApfsList,
    captures: ['diskutil/apfs-list-plist-intel-500gb-7-volumes-edenfs/stdout.plist'],
  },
  {
    name: 'diskutil list',
    parse: parseDiskutilList,
    captures: ['diskutil/list-plist-tart-vm-apple-silicon-disk0-UNRESOLVED-REPO/stdout.plist'],
  },
  {
    name: 'system_profiler json',
    parse: parseSystemProfilerJson,
    captures: ['system-profiler/spnvme-spstorage-apple-silicon-ap0256z-json/stdout.json'],
  },
  {
    name: 'system_profiler xml',
    parse: parseSystemProfilerXml,
    captures: ['system-profiler/spserialata-wdc-wd2500aajs-hdd-xml/stdout.xml'],
  },
  {
    name: 'sysctl',
    parse: parseSysctlCpu,
    captures: ['sysctl/machdep-cpu-macos10.9-vm-guest-no-aes/stdout.txt'],
  },
  { name: 'fdesetup', parse: parseFdesetupStatus, captures: [] },
  {
    name: 'fsutil',
    parse: parseDisableDeleteNotify,
    captures: ['fsutil/disabledeletenotify-ntfs0-refs0/stdout.txt'],
  },
  {
    name: 'manage-bde',
    parse: parseManageBdeStatus,
    captures: [
      'manage-bde/status-de-win10-xtsaes128-100pct-in-progress/stdout.txt',
      'manage-bde/status-all-win11-xtsaes128-tpm/stdout.txt',
    ],
  },
  {
    name: 'powershell storage',
    parse: parseWindowsStorageJson,
    captures: ['powershell/get-disk-get-partition-github-runner-ps51/stdout.json'],
  },
  {
    name: 'diskspd',
    parse: parseDiskspdText,
    captures: ['diskspd/win10-1903-container-i7-6700-micron-m600-sata-ssd-4k-rand-5050-L/stdout.txt'],
  },
  {
    name: 'crystaldiskmark',
    parse: parseCrystalDiskMarkText,
    captures: ['crystaldiskmark/cdm8.0.4-win10-wd40purx-hdd-usb/stdout.txt'],
  },
];

// Hundreds of generated inputs per parser: a generous timeout so a loaded CI machine does not fail them.
describe.each(CASES)('$name parser on arbitrary input', { timeout: 60_000 }, ({ parse, captures }) => {
  it('never crashes on hostile strings and JSON: a result or TOOL_OUTPUT_UNRECOGNIZED / _TOO_LARGE', () => {
    checkHostileInputs(parse);
  });

  it('gives a typed error or a result for every truncation of its real captures', () => {
    for (const capture of captures) {
      checkTruncations(fixture(capture), parse);
    }
  });

  it('refuses a 10 MB input with a typed error', () => {
    checkHugeInput(parse, '<');
  });
});
