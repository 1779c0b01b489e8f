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
