import { describe, expect, it } from 'vitest';
import { parseDiskutilApfsList } from '../../src/parsers/diskutil/parse-diskutil-apfs-list.js';
import { parseDiskutilInfo } from '../../src/parsers/diskutil/parse-diskutil-info.js';
import { parseManageBdeStatus } from '../../src/parsers/manage-bde/parse-manage-bde-status.js';
import { apfsReadingOf, darwinLayout, type ApfsReading } from '../../src/targets/apfs/volume-state.js';
import { windowsLayout, type BitLockerReading } from '../../src/targets/bitlocker/volume-state.js';
import { fixture } from '../support/fixtures.js';

/** The volumes of a `diskutil apfs list -plist` capture, read as the macOS probe reads them. */
function apfsVolumes(name: string) {
  const readings = parseDiskutilApfsList(fixture(`diskutil/${name}/stdout.plist`))
    .flatMap((container) => container.volumes)
    .map((volume) =>
      apfsReadingOf(
        { ...volume, volume: volume.deviceIdentifier },
        {
          converting: volume.cryptoMigrationOn === true,
          hardware: null,
          roles: [],
          source: 'diskutil apfs list',
        },
      ),
    );
  return darwinLayout('disk0', [], readings).volumes;
}

const protectionOf = (volumes: ReturnType<typeof apfsVolumes>): Record<string, string | null> =>
  Object.fromEntries(
    volumes.map((volume) => [volume.label ?? volume.id, volume.encryption?.protection ?? null] as const),
  );

describe('APFS volume state (targets/apfs)', () => {
  it('Mojave capture: the unlocked FileVault volume is protected; Encrypted without FileVault is at-rest only, protection off', () => {
    expect(protectionOf(apfsVolumes('apfs-list-plist-mojave-500gb-filevault-on'))).toEqual({
      'Macintosh HD': 'on',
      Preboot: null,
      Recovery: null,
      VM: 'off',
      'edenfs:/Users/wez/fbsource/buck-out': 'off',
      'edenfs:/Users/wez/fbsource/fbcode/buck-out': 'off',
      'edenfs:/Users/wez/fbsource/fbobjc/buck-out': 'off',
    });
  });

  it('seven-volume capture: edenfs volumes Encrypted, FileVault No: off, never counted as protected', () => {
    const volumes = apfsVolumes('apfs-list-plist-intel-500gb-7-volumes-edenfs');
    expect(volumes.find((volume) => volume.label === 'Macintosh HD')?.encryption).toMatchObject({
      kind: 'filevault',
      protection: 'on',
    });
    const eden = volumes.filter((volume) => volume.label?.startsWith('edenfs') === true);
    expect(eden.length).toBeGreaterThan(0);
    expect(eden.map((volume) => [volume.encryption?.kind, volume.encryption?.protection])).toEqual(
      eden.map(() => ['apfs', 'off']),
    );
  });

  it('Catalina diskutil info of the FileVault Data volume, "Locked: No": still protected', () => {
    const info = parseDiskutilInfo(
      fixture('diskutil/info-plist-intel-catalina-disk1s1-data-filevault/stdout.plist'),
    );
    expect(info.locked).toBe(false);
    const reading = apfsReadingOf(
      { ...info, volume: info.deviceIdentifier, name: info.volumeName },
      { converting: false, hardware: info.aesHardware, roles: [], source: 'diskutil info' },
    );
    expect(darwinLayout('disk0', [], [reading]).volumes[0]?.encryption?.protection).toBe('on');
  });

  it('a locked volume is protected whatever FileVault says; without a FileVault key (10.13) unlocked is unknown', () => {
    const base: ApfsReading = {
      volume: 'disk2s1',
      name: 'Backup',
      kind: 'apfs',
      fileVault: null,
      converting: false,
      locked: true,
      hardware: null,
      roles: [],
      source: 'diskutil apfs list',
    };
    const protection = (reading: ApfsReading) =>
      darwinLayout('disk2', [], [reading]).volumes[0]?.encryption?.protection;
    expect(protection(base)).toBe('on');
    expect(protection({ ...base, locked: false })).toBe('unknown');
    expect(protection({ ...base, locked: null, fileVault: false })).toBe('off');
  });
});

/** The BitLocker readings of a manage-bde capture, as the Windows probe makes them. */
function bitLocker(name: string): BitLockerReading[] {
  return parseManageBdeStatus(fixture(`manage-bde/${name}/stdout.txt`)).map((volume) => ({
    volume: volume.volume,
    name: volume.label,
    conversion: volume.conversion,
    protectionOn: volume.protectionOn,
    locked: volume.locked,
    method: volume.method.kind,
    keyBits: volume.method.keyBits,
    hardware: false,
    percentEncrypted: volume.percentEncrypted,
    protectors: [...volume.keyProtectors],
    source: 'manage-bde',
  }));
}

const stateOf = (readings: readonly BitLockerReading[]) =>
  windowsLayout('\\\\.\\PhysicalDrive0', [], readings, true).volumes[0]?.encryption;

describe('BitLocker volume state (targets/bitlocker)', () => {
  it('German Windows 10 at 3.5 %, "Der Schutz ist deaktiviert.": encrypting with protection off, TPM protector', () => {
    expect(stateOf(bitLocker('status-de-win10-xtsaes128-3pct-in-progress-protection-off'))).toMatchObject({
      protection: 'off',
      conversion: 'encrypting',
      percentEncrypted: 3.5,
      keySlots: [{ id: '0', type: 'TPM', tokens: [] }],
    });
  });

  it('Windows 11 used-space-only with TPM, and AES-CBC 256 with a password protector: on', () => {
    expect(stateOf(bitLocker('status-all-win11-xtsaes128-tpm'))).toMatchObject({
      protection: 'on',
      conversion: 'used-space-only',
      cipher: 'xts-aes',
      keyBits: 128,
    });
    expect(stateOf(bitLocker('status-c-win11-aes256-cbc-decimal-comma'))).toMatchObject({
      protection: 'on',
      conversion: 'used-space-only',
      cipher: 'aes-cbc',
      keyBits: 256,
    });
  });

  it('protection off after conversion: suspended with protectors, off without any; locked is on', () => {
    const [captured] = bitLocker('status-all-win11-xtsaes128-tpm');
    expect(captured).toBeDefined();
    const off = { ...captured!, protectionOn: false };
    expect(stateOf([off])?.protection).toBe('suspended');
    expect(stateOf([{ ...off, protectors: [] }])?.protection).toBe('off');
    expect(
      stateOf([{ ...off, conversion: 'fully-encrypted', protectionOn: null, locked: true }])?.protection,
    ).toBe('on');
    expect(stateOf([{ ...off, protectionOn: null, locked: false }])?.protection).toBe('unknown');
  });

  it('a locked volume is BitLocker-encrypted and protected even when its method and status read as none', () => {
    const [captured] = bitLocker('status-all-win11-xtsaes128-tpm');
    expect(captured).toBeDefined();
    const locked = {
      ...captured!,
      conversion: null,
      method: 'none' as const,
      protectionOn: null,
      locked: true,
    };
    expect(stateOf([locked])).toMatchObject({ kind: 'bitlocker', protection: 'on', conversion: 'unknown' });
    expect(stateOf([{ ...locked, locked: false }])).toBeNull();
    expect(stateOf([{ ...locked, locked: null }])).toBeNull();
  });
});
