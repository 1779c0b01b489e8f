import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFleetReport, type FleetDocument } from '../../src/fleet/fleet-report.js';
import { renderFleetText } from '../../src/fleet/fleet-text.js';
import { readFleetDocuments } from '../../src/node/fleet-documents.js';
import { WINDOWS_COMMANDS } from '../../src/probes/windows/probe-windows-storage.js';
import { bitLockerVolumeOfFormatList } from '../../../../tests/support/bitlocker-format-list.js';
import { tempDir } from '../../../../tests/support/temp-dirs.js';
import { fixture } from '../support/fixtures.js';

/*
 * Issue 26 item 4: BitLocker "suspended" on an unedited capture. A user's `Get-BitLockerVolume | Format-List`
 * (MSEndpointMgr/Intune#77, fixtures/powershell/PROVENANCE.md): FullyEncrypted, ProtectionStatus Off, a TPM key
 * protector. It is answered as the Windows probe's storage pipeline (its JSON holds the same properties), in a
 * bundle replayed as `encplan fleet report BUNDLE` does, so the probe, the storage model and the fleet row all run.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read single fields of a real document
type Doc = Record<string, any>;

const CAPTURE = 'powershell/get-bitlockervolume-format-list-win-fullyencrypted-protection-off-tpm/stdout.txt';

/** A bundle of one Windows machine whose storage pipeline answered with the captured volume, nothing else. */
async function bundleOfCapture(): Promise<string> {
  const directory = path.join(await tempDir('encplan-fleet-bitlocker-'), 'intune77');
  await mkdir(directory);
  const storage = WINDOWS_COMMANDS.storage();
  await writeFile(
    path.join(directory, 'bundle.json'),
    JSON.stringify({
      schema: 'encplan.bundle',
      schemaVersion: [1, 0],
      toolVersion: '0.1.0',
      collectedAt: '2026-11-27T03:30:00.000Z',
      platform: 'win32',
      cwd: 'C:\\',
      privileged: true,
      device: '0',
      serialsIncluded: false,
      captures: [
        {
          kind: 'command',
          tool: storage.tool,
          argv: [...storage.args],
          stdinBytes: 0,
          output: {
            exitCode: 0,
            stdout: JSON.stringify({ BitLockerVolumes: [bitLockerVolumeOfFormatList(fixture(CAPTURE))] }),
            stderr: '',
            durationMs: 0,
          },
          error: null,
        },
        { kind: 'which-tool', tool: 'smartctl', result: null, error: null },
      ],
    }),
  );
  return directory;
}

describe('BitLocker suspended on a real Get-BitLockerVolume capture (issue 26 item 4)', () => {
  it('is suspended in the storage model and in the fleet row, which must fix it first', async () => {
    const documents: FleetDocument[] = [];
    for await (const document of await readFleetDocuments([await bundleOfCapture()], {
      now: () => new Date('2026-11-27T03:30:00.000Z'),
    })) {
      documents.push(document);
    }
    expect(documents).toHaveLength(1);
    const storage = ((documents[0] as { json: Doc }).json.result as Doc).storage as Doc;
    expect(storage.volumes).toHaveLength(1);
    expect(storage.volumes[0]).toMatchObject({
      id: 'C:',
      encryption: {
        kind: 'bitlocker',
        protection: 'suspended',
        conversion: 'complete',
        percentEncrypted: 100,
        keySlots: [{ id: '0', type: 'Tpm', tokens: [] }],
      },
    });
    const report = buildFleetReport(documents);
    expect(report.rows[0]).toMatchObject({
      platform: 'win32',
      readiness: 'fix-first',
      issues: 'protection-off',
      protectionOff: true,
      protectionOn: false,
      protection: 'suspended',
      encryptionMethod: 'xts-aes-128',
      conversionInProgress: false,
      tpmProtector: true,
    });
    expect(report.rows[0]?.issueDetails).toBe(
      'C: has protection off: the key is stored in the clear until it is resumed (manage-bde -protectors -enable).',
    );
    expect(renderFleetText(report)).toContain('protection suspended');
  });
});
