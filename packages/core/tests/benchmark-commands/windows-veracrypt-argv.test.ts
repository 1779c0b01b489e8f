import { describe, expect, it } from 'vitest';
import {
  parseFreeLetter,
  veracryptWindowsFormat,
  veracryptWindowsFreeLetter,
  veracryptWindowsMountArgs,
  veracryptWindowsVolumeCheck,
  windowsCommandLine,
} from '../../src/benchmark-commands/windows-veracrypt.js';
import { veracryptWindowsDismountArgs } from '../../src/targets/veracrypt/cleanup.js';

const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });

describe('windowsCommandLine (read back by CommandLineToArgvW)', () => {
  it('quotes only arguments with blanks or none at all, doubling backslashes before a closing quote', () => {
    expect(windowsCommandLine(['/create', 'D:\\a b\\c.hc', '', 'C:\\dir with space\\', '/silent'])).toBe(
      '/create "D:\\a b\\c.hc" "" "C:\\dir with space\\\\" /silent',
    );
  });
});

describe('VeraCrypt Windows argv', () => {
  const base = { containerPath: 'D:\\w\\vc.hc', keyfilePath: 'C:\\Users\\A B\\Temp\\k.key', letter: 'Z' };

  it('mounts with the keyfile and an empty password tried, never /password', () => {
    const args = veracryptWindowsMountArgs(base);
    expect(args).toEqual([
      '/volume',
      'D:\\w\\vc.hc',
      '/letter',
      'Z',
      '/keyfile',
      'C:\\Users\\A B\\Temp\\k.key',
      '/tryemptypass',
      'y',
      '/hash',
      'sha512',
      '/quit',
      '/silent',
    ]);
    expect(args.filter((arg) => /^\/p(assword)?$/i.test(arg))).toEqual([]);
  });

  it('unmounts one letter only', () => {
    expect(veracryptWindowsDismountArgs('Q')).toEqual(['/dismount', 'Q', '/force', '/quit', '/silent']);
    for (const letter of ['', 'C', 'z', 'ZZ', '/a']) {
      expect(() => veracryptWindowsDismountArgs(letter), letter).toThrow(invalid);
    }
  });

  it('refuses relative paths, quotes in paths and system letters', () => {
    for (const bad of [
      { containerPath: 'vc.hc' },
      { keyfilePath: "C:\\it's\\k.key" },
      { keyfilePath: 'C:\\a"b\\k.key' },
      { letter: 'C' },
    ]) {
      expect(() => veracryptWindowsMountArgs({ ...base, ...bad }), JSON.stringify(bad)).toThrow(invalid);
    }
  });

  it('creates through Start-Process -Wait (a GUI program) next to VeraCrypt.exe, with a keyfile and no password', () => {
    const spec = veracryptWindowsFormat({
      veracryptPath: 'C:\\Program Files\\VeraCrypt\\VeraCrypt.exe',
      containerPath: 'D:\\w\\vc.hc',
      keyfilePath: 'C:\\Users\\A B\\Temp\\k.key',
      sizeMebibytes: 320,
    });
    expect(spec.tool).toBe('powershell');
    expect(spec.stdin).toBeUndefined();
    expect(spec.args.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command']);
    expect(spec.args[3]?.split('\n')).toEqual([
      "$ErrorActionPreference = 'Stop'",
      "$format = Join-Path (Split-Path -Parent 'C:\\Program Files\\VeraCrypt\\VeraCrypt.exe') 'VeraCrypt Format.exe'",
      '$p = Start-Process -FilePath $format -ArgumentList \'/create D:\\w\\vc.hc /size 320M /encryption AES /hash sha512 /pim 0 /keyfile "C:\\Users\\A B\\Temp\\k.key" /filesystem NTFS /silent\' -Wait -PassThru',
      'exit $p.ExitCode',
    ]);
    expect(spec.args.join(' ')).not.toMatch(/\/password|\/p /i);
    expect(() =>
      veracryptWindowsFormat({
        veracryptPath: 'C:\\VeraCrypt\\VeraCrypt.exe',
        containerPath: 'D:\\vc.hc',
        keyfilePath: 'D:\\k.key',
        sizeMebibytes: 8,
      }),
    ).toThrow(invalid);
  });

  it('finds a free letter from Z down and reads it back, or says none is free', () => {
    expect(veracryptWindowsFreeLetter().args[3]).toContain('[char[]](90..68)');
    expect(parseFreeLetter('y\r\n')).toBe('Y');
    expect(() => parseFreeLetter('\r\n')).toThrow(expect.objectContaining({ code: 'TOOL_FAILED' }));
    expect(() => parseFreeLetter('C')).toThrow(invalid);
    expect(veracryptWindowsVolumeCheck('Z').args[3]).toMatch(/^Get-Volume -DriveLetter 'Z' \| /);
  });
});
