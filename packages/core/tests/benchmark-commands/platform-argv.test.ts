import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diskutilAddScratchVolume, hdiutilCreateEncryptedImage } from '../../src/targets/apfs/hdiutil.js';
import {
  CRYSTALDISKMARK_PROFILES,
  diskspdProfileRun,
  veracryptWindowsCreateContainer,
} from '../../src/benchmark-commands/windows.js';
import { words } from '../support/argv.js';

// A prefix keeps a generated secret from equalling a fixed word of the command line ("APFS", "-fs").
const SECRET = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter((text) => !/[\0\n\r]/.test(text))
  .map((text) => `secret-${text}`);

describe('hdiutilCreateEncryptedImage', () => {
  it('builds an encrypted APFS image with the passphrase on stdin, NUL-terminated', () => {
    const spec = hdiutilCreateEncryptedImage({
      imagePath: '/Users/me/encplan-scratch.dmg',
      volumeName: 'encplan-aes',
      sizeMebibytes: 1024,
      keyBits: 256,
      passphrase: 'correct horse',
    });
    expect(spec).toEqual({
      tool: 'hdiutil',
      args: [
        ...words('create -size 1024m -fs APFS -volname encplan-aes -encryption AES-256 -stdinpass'),
        '/Users/me/encplan-scratch.dmg',
      ],
      stdin: 'correct horse\0',
      timeoutMs: 120_000,
    });
  });

  it('never puts the passphrase in argv, whatever it is', () => {
    fc.assert(
      fc.property(SECRET, fc.constantFrom(128 as const, 256 as const), (passphrase, keyBits) => {
        const spec = hdiutilCreateEncryptedImage({
          imagePath: '/tmp/x.dmg',
          volumeName: 'encplan-x',
          sizeMebibytes: 64,
          keyBits,
          passphrase,
        });
        expect(spec.args.some((arg) => arg.includes(passphrase))).toBe(false);
        expect(spec.args).not.toContain(passphrase);
        expect(spec.stdin).toBe(`${passphrase}\0`);
      }),
    );
  });

  it('refuses names that are not encplan scratch names, relative paths and secrets with NUL or newline', () => {
    const base = {
      imagePath: '/tmp/x.dmg',
      volumeName: 'encplan-x',
      sizeMebibytes: 64,
      keyBits: 256 as const,
      passphrase: 'p',
    };
    for (const bad of [
      { volumeName: '-nobrowse' },
      { imagePath: 'x.dmg' },
      { passphrase: 'a\nb' },
      { passphrase: '' },
      { sizeMebibytes: 1 },
    ]) {
      expect(() => hdiutilCreateEncryptedImage({ ...base, ...bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});

describe('diskutilAddScratchVolume', () => {
  it('adds an encrypted volume with -stdinpassphrase and the plain twin without', () => {
    expect(
      diskutilAddScratchVolume({ container: 'disk3', volumeName: 'encplan-enc', passphrase: 's3cret' }),
    ).toEqual({
      tool: 'diskutil',
      args: ['apfs', 'addVolume', 'disk3', 'APFS', 'encplan-enc', '-stdinpassphrase'],
      stdin: 's3cret\n',
      timeoutMs: 60_000,
    });
    expect(
      diskutilAddScratchVolume({ container: 'disk3', volumeName: 'encplan-plain', passphrase: null }).args,
    ).toEqual(['apfs', 'addVolume', 'disk3', 'APFS', 'encplan-plain']);
  });

  it('keeps every secret out of argv and refuses a container that is not diskN', () => {
    fc.assert(
      fc.property(SECRET, (passphrase) => {
        const spec = diskutilAddScratchVolume({ container: 'disk1', volumeName: 'encplan-x', passphrase });
        expect(spec.args.some((arg) => arg.includes(passphrase))).toBe(false);
        expect(spec.args).not.toContain('-passphrase');
        expect(spec.stdin).toBe(`${passphrase}\n`);
      }),
    );
    expect(() =>
      diskutilAddScratchVolume({ container: 'disk1s1; rm', volumeName: 'encplan-x', passphrase: null }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('diskspdProfileRun', () => {
  it('has the four CrystalDiskMark profiles and builds each read and write run', () => {
    expect(CRYSTALDISKMARK_PROFILES.map((profile) => profile.name)).toEqual([
      'SEQ1M Q8T1',
      'SEQ1M Q1T1',
      'RND4K Q32T1',
      'RND4K Q1T1',
    ]);
    const runs = CRYSTALDISKMARK_PROFILES.flatMap((profile) =>
      (['read', 'write'] as const).map((direction) =>
        diskspdProfileRun({
          profile,
          direction,
          testFile: 'D:\\encplan\\test.dat',
          fileSizeMebibytes: 1024,
          durationSeconds: 5,
        }),
      ),
    );
    expect(runs).toHaveLength(8);
    expect(runs[0]?.args).toEqual([
      ...words('-b1M -o8 -t1 -w0 -Sh -L -Zr -W2 -d5 -c1024M'),
      'D:\\encplan\\test.dat',
    ]);
    expect(runs[5]?.args).toEqual([
      ...words('-b4K -o32 -t1 -r -w100 -Sh -L -Zr -W2 -d5 -c1024M'),
      'D:\\encplan\\test.dat',
    ]);
    expect(runs.every((run) => run.tool === 'diskspd' && run.args.at(-1) === 'D:\\encplan\\test.dat')).toBe(
      true,
    );
  });

  it('refuses a test file that is not an absolute Windows path (an option or a relative name)', () => {
    const profile = CRYSTALDISKMARK_PROFILES[0];
    for (const testFile of ['-d999', 'test.dat', '\\\\server\\share\\x', 'C:\\a"b']) {
      expect(() =>
        diskspdProfileRun({
          profile: profile!,
          direction: 'read',
          testFile,
          fileSizeMebibytes: 64,
          durationSeconds: 5,
        }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });
});

describe('veracryptWindowsCreateContainer', () => {
  const input = {
    containerPath: 'D:\\encplan\\vc.hc',
    keyfilePath: 'D:\\encplan\\vc.key',
    sizeMebibytes: 1024,
    encryption: 'AES',
    hash: 'sha512',
    pim: 0,
  } as const;

  it('keys the container with a keyfile and never carries /password', () => {
    const command = veracryptWindowsCreateContainer(input);
    expect(command).toEqual({
      executable: 'VeraCrypt Format.exe',
      args: [
        '/create',
        'D:\\encplan\\vc.hc',
        '/size',
        '1024M',
        '/encryption',
        'AES',
        '/hash',
        'sha512',
        '/pim',
        '0',
        '/keyfile',
        'D:\\encplan\\vc.key',
        '/filesystem',
        'NTFS',
        '/silent',
      ],
    });
    expect(command.args).not.toContain('/password');
    expect(command.args).not.toContain('/p');
  });

  it('refuses relative paths and a negative PIM', () => {
    for (const bad of [{ containerPath: 'vc.hc' }, { keyfilePath: '/password' }, { pim: -1 }]) {
      expect(() => veracryptWindowsCreateContainer({ ...input, ...bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
