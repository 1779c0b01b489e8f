// Builds fixtures/bundles/darwin-* and windows-* from real captured outputs in fixtures/ (issue 13).
// Each bundle holds the outputs of ONE machine, under the argv encplan's macOS/Windows probe set runs;
// commands whose output no public capture has are left out, so replaying them answers "not in the bundle".
// Run after `npm run build`: node scripts/build-platform-bundles.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBundle } from '../packages/core/dist/capture/bundle.js';
import { DARWIN_COMMANDS } from '../packages/core/dist/probes/darwin/probe-darwin-storage.js';
import { WINDOWS_COMMANDS } from '../packages/core/dist/probes/windows/probe-windows-storage.js';
// The one redaction of `encplan collect`: serial numbers and WWNs hashed as a collection hashes them.
import { protectCaptures } from '../packages/core/dist/use-cases/bundle-of.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (relative) => readFileSync(path.join(ROOT, 'fixtures', relative), 'utf8');

function command(spec, stdout, exitCode = 0) {
  return {
    kind: 'command',
    tool: spec.tool,
    argv: [...spec.args],
    stdinBytes: 0,
    output: { exitCode, stdout, stderr: '', durationMs: 0 },
    error: null,
  };
}
const which = (tool, result) => ({ kind: 'which-tool', tool, result, error: null });

const BUNDLES = [
  {
    name: 'darwin-intel-catalina-filevault-disk1s5',
    platform: 'darwin',
    device: 'disk1s5',
    captures: [
      command(
        DARWIN_COMMANDS.info('disk1s5'),
        read('diskutil/info-plist-intel-catalina-disk1s5-system-filevault/stdout.plist'),
      ),
      which('smartctl', null),
    ],
  },
  {
    name: 'darwin-apple-silicon-ap0256z-system-profiler',
    platform: 'darwin',
    device: 'disk0',
    captures: [
      command(
        DARWIN_COMMANDS.systemProfiler(),
        read('system-profiler/spnvme-spstorage-apple-silicon-ap0256z-json/stdout.json'),
      ),
      which('smartctl', null),
    ],
  },
  {
    name: 'darwin-network-path-diskutil-error',
    platform: 'darwin',
    device: '/Volumes/SMB',
    captures: [
      command(
        DARWIN_COMMANDS.info('/Volumes/SMB'),
        read('diskutil/info-plist-error-could-not-find-disk/stdout.plist'),
        1,
      ),
      which('smartctl', null),
    ],
  },
  {
    name: 'windows-github-runner-virtual-disks',
    platform: 'win32',
    device: '0',
    captures: [
      command(
        WINDOWS_COMMANDS.storage(),
        read('powershell/get-disk-get-partition-github-runner-ps51/stdout.json'),
      ),
      which('smartctl', null),
    ],
  },
  {
    name: 'windows-win11-bc901-bitlocker-xtsaes128',
    platform: 'win32',
    device: '0',
    captures: [
      command(WINDOWS_COMMANDS.manageBde(), read('manage-bde/status-all-win11-xtsaes128-tpm/stdout.txt')),
      which('smartctl', null),
    ],
  },
  {
    name: 'windows-de-win10-bitlocker-in-progress',
    platform: 'win32',
    device: '0',
    captures: [
      command(
        WINDOWS_COMMANDS.manageBde(),
        read('manage-bde/status-de-win10-xtsaes128-100pct-in-progress/stdout.txt'),
      ),
      which('smartctl', null),
    ],
  },
  {
    name: 'windows-de-win10-bitlocker-3pct-protection-off',
    platform: 'win32',
    device: '0',
    captures: [
      command(
        WINDOWS_COMMANDS.manageBde(),
        read('manage-bde/status-de-win10-xtsaes128-3pct-in-progress-protection-off/stdout.txt'),
      ),
      which('smartctl', null),
    ],
  },
];

for (const bundle of BUNDLES) {
  const document = parseBundle({
    schema: 'encplan.bundle',
    schemaVersion: [1, 0],
    toolVersion: '0.1.0',
    // Not a collection time: the captures come from public sources (PROVENANCE.md); this is when the bundle was assembled.
    collectedAt: '2026-11-23T20:00:00.000Z',
    platform: bundle.platform,
    cwd: bundle.platform === 'win32' ? 'C:\\' : '/',
    privileged: false,
    device: bundle.device,
    serialsIncluded: false,
    captures: await protectCaptures(bundle.captures, false),
  });
  const directory = path.join(ROOT, 'fixtures/bundles', bundle.name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'bundle.json'), `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote fixtures/bundles/${bundle.name}/bundle.json`);
}

// A benchmarked Windows bundle (assess --benchmark): `collect` runs over a host whose tool answers are the real
// captures below and whose effects (directories, files, the run's identity) are answered, not done; the
// recording host files every call, so the bundle replays exactly what the Windows benchmark asks.
// fixtures/bundles/windows-diskspd-benchmark-composed/PROVENANCE.md says what is real and what is not.
const { collect } = await import('../packages/core/dist/use-cases/collect.js');
const { EncplanError } = await import('../packages/core/dist/errors.js');
const DISKSPD_PLAIN = read('diskspd/azure-d1v2-local-ssd-d-4k-rand-5050/stdout.txt');
const DISKSPD_ENCRYPTED = read(
  'diskspd/win10-1903-container-i7-6700-micron-m600-sata-ssd-4k-rand-5050-L/stdout.txt',
);
const RUNNER_STORAGE = read('powershell/get-disk-get-partition-github-runner-ps51/stdout.json');
// No real capture of the set-up's last line exists: Get-BitLockerVolume's documented properties, as the
// script selects and converts them (Microsoft Learn, "Get-BitLockerVolume"; BitLockerVolume class).
const VHD_VOLUME =
  '{"MountPoint":"E:","VolumeStatus":"FullyEncrypted","EncryptionMethod":"XtsAes256","EncryptionPercentage":100}';
const fail = (what) => {
  throw new EncplanError('DEVICE_UNSUPPORTED', `not answered: ${what}`);
};
const files = new Set();
const windowsHost = {
  platform: 'win32',
  cwd: 'C:\\',
  privileged: true,
  async run(spec) {
    const answer = (stdout, exitCode = 0) => ({ exitCode, stdout, stderr: '', durationMs: 0 });
    if (spec.tool === 'powershell' && spec.args[3] === WINDOWS_COMMANDS.storage().args[3]) {
      return answer(RUNNER_STORAGE);
    }
    if (spec.tool === 'powershell' && spec.args[3].includes('Enable-BitLocker')) {
      // New-VHD made the VHDX file (removed by the cleanup after Dismount-DiskImage).
      files.add(/New-VHD -Path '([^']+)'/.exec(spec.args[3])[1]);
      return answer(VHD_VOLUME);
    }
    if (spec.tool === 'powershell' && spec.args[3].startsWith('Dismount-DiskImage')) {
      return answer('');
    }
    if (spec.tool === 'diskspd') {
      files.add(spec.args.at(-1)); // -c creates the test file
      return answer(spec.args.at(-1).startsWith('E:') ? DISKSPD_ENCRYPTED : DISKSPD_PLAIN);
    }
    // fsutil, manage-bde and version banners: no capture of this machine, so "not installed".
    throw new EncplanError('TOOL_NOT_FOUND', `${spec.tool} is not installed.`);
  },
  readText: async () => null,
  listDir: async () => null,
  realPath: async () => null,
  stat: async (path) =>
    files.has(path)
      ? { kind: 'file', deviceNumber: null, containingDeviceNumber: '0:0', sizeBytes: 0, readable: true }
      : null,
  whichTool: async (tool) =>
    tool === 'diskspd'
      ? 'C:\\Tools\\diskspd.exe'
      : tool === 'powershell'
        ? 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'
        : null,
  systemInfo: async () => fail('systemInfo'),
  effects: {
    runIdentity: async () => ({
      pid: 4242,
      nonce: '5eed',
      tempDirectory: 'C:\\Users\\runneradmin\\AppData\\Local\\Temp',
      stateDirectory: 'C:\\Users\\runneradmin\\AppData\\Local\\Temp\\encplan',
      startedAt: '2026-11-25T17:00:00.000Z',
    }),
    monotonicMs: (() => {
      let now = 0;
      return async () => (now += 1000);
    })(),
    makeDirectory: async (path) => void files.add(path),
    createFile: async (path) => void files.add(path),
    writeTextAtomic: async (path) => void files.add(path),
    remove: async (path) => void files.delete(path),
    freeBytes: async () => 50 * 1024 ** 3,
    directIoAllowed: async () => true,
    processAlive: async () => true,
  },
};
/** `collect DEVICE --benchmark --quick` over `host` at `when`, written to fixtures/bundles/NAME/bundle.json. */
async function writeBenchmarkedBundle(name, host, device, when) {
  const { bundle } = await collect(
    { host, clock: { now: () => new Date(when) } },
    { device, includeSerials: false, benchmark: { quick: true } },
  );
  const directory = path.join(ROOT, 'fixtures/bundles', name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'bundle.json'), `${JSON.stringify(parseBundle(bundle), null, 2)}\n`);
  console.log(`wrote fixtures/bundles/${name}/bundle.json`);
}
await writeBenchmarkedBundle(
  'windows-diskspd-benchmark-composed',
  windowsHost,
  '1',
  '2026-11-25T17:00:00.000Z',
);

// A benchmarked macOS bundle (assess disk1s1 --benchmark): the same way, over a Mac host whose diskutil answer is
// a real capture and whose fio answers are real fio JSON files; the hdiutil answers are composed.
// fixtures/bundles/darwin-fio-apfs-image-benchmark-composed/PROVENANCE.md says what is real and what is not.
const CATALINA_DATA = read('diskutil/info-plist-intel-catalina-disk1s1-data-filevault/stdout.plist');
const FIO_OUTPUTS = {
  plain: {
    read: read('fio/sata-ssd-intel-d3-s4610-randread-qd1-fio3.1/output.json'),
    write: read('fio/usb-ssd-crucial-240gb-randwrite-qd1-nj16-fio3.1/output.json'),
  },
  encrypted: {
    read: read('fio/macos-interrupted-sigint-prefix-fio3.34/output.json'),
    write: read('fio/macos-posixaio-randwrite-1k-qd8-direct-fio3.39/output.json'),
  },
};
const macFiles = new Map();
const macTemp = '/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T';
const macIdentity = {
  pid: 4343,
  nonce: 'a11e',
  tempDirectory: macTemp,
  stateDirectory: `${macTemp}/encplan`,
  startedAt: '2026-11-26T06:00:00.000Z',
};
let macClock = 0;
const madeAs = (kind) => async (path) => void macFiles.set(path, kind);
/** What a Mac tool printed, exit status 0 unless given. */
const macAnswer = (stdout, exitCode = 0) => ({ exitCode, stdout, stderr: '', durationMs: 0 });
const macHost = {
  platform: 'darwin',
  cwd: '/Users/tester',
  privileged: false,
  async run(spec) {
    if (spec.tool === 'diskutil' && spec.args.join(' ') === 'info -plist disk1s1') {
      return macAnswer(CATALINA_DATA);
    }
    if (spec.tool === 'hdiutil' && spec.args[0] === 'create') {
      macFiles.set(spec.args.at(-1), 'file');
      return macAnswer('');
    }
    if (spec.tool === 'hdiutil' && spec.args[0] === 'isencrypted') {
      // hdiutil(1): the first line of an encrypted image's answer; its details are not parsed.
      return macAnswer('encrypted: YES\n');
    }
    if (spec.tool === 'hdiutil' && (spec.args[0] === 'attach' || spec.args[0] === 'detach')) {
      return macAnswer('');
    }
    if (spec.tool === 'fio' && spec.args.join(' ') === '--version') {
      return macAnswer('fio-3.39\n'); // the version of the real macOS posixaio capture
    }
    if (spec.tool === 'fio') {
      const option = (name) => spec.args.find((arg) => arg.startsWith(`--${name}=`)).slice(name.length + 3);
      const side = option('filename').includes('/apfs-volume/') ? 'encrypted' : 'plain';
      const direction = /write/.test(option('rw')) ? 'write' : 'read';
      macFiles.set(option('filename'), 'file');
      macFiles.set(option('output'), FIO_OUTPUTS[side][direction]);
      return macAnswer('');
    }
    // system_profiler, fdesetup, sysctl, diskutil list and apfs list, version banners: no capture of this Mac.
    throw new EncplanError('TOOL_NOT_FOUND', `${spec.tool} is not installed.`);
  },
  readText: async (path) => {
    const content = macFiles.get(path);
    return content === undefined || content === 'file' || content === 'directory' ? null : content;
  },
  listDir: async () => null,
  realPath: async () => null,
  stat: async (path) =>
    macFiles.has(path)
      ? {
          kind: macFiles.get(path) === 'directory' ? 'directory' : 'file',
          deviceNumber: null,
          containingDeviceNumber: '1:4',
          sizeBytes: 0,
          readable: true,
        }
      : null,
  whichTool: async (tool) =>
    tool === 'fio'
      ? '/usr/local/bin/fio'
      : tool === 'hdiutil' || tool === 'diskutil'
        ? `/usr/bin/${tool}`
        : null,
  systemInfo: async () => fail('systemInfo'),
  effects: {
    runIdentity: async () => macIdentity,
    monotonicMs: async () => (macClock += 1000),
    makeDirectory: madeAs('directory'),
    createFile: madeAs('file'),
    writeTextAtomic: madeAs('file'),
    remove: async (path) => void macFiles.delete(path),
    freeBytes: async () => 120 * 1024 ** 3,
    directIoAllowed: async () => true,
    processAlive: async () => true,
  },
};
await writeBenchmarkedBundle(
  'darwin-fio-apfs-image-benchmark-composed',
  macHost,
  'disk1s1',
  '2026-11-26T06:00:00.000Z',
);
