import { describe, expect, it } from 'vitest';
import { veracryptWindowsCommands } from '../../src/targets/veracrypt/commands.js';

const GIB = 1024 ** 3;
const kdf = { hash: 'sha512', pim: 485 };

describe("VeraCrypt's Windows commands (targets/veracrypt)", () => {
  it('names a cascade as VeraCrypt Format.exe does, nested in parentheses, and a single cipher as itself', () => {
    const [cascade] = veracryptWindowsCommands('D:', { encryption: 'AES-Twofish-Serpent', kdf }, 'x', GIB);
    const [single] = veracryptWindowsCommands('D:', { encryption: 'Serpent', kdf }, 'x', GIB);
    const after = (argv: readonly string[] | undefined, flag: string) => argv?.[argv.indexOf(flag) + 1];
    expect(after(cascade?.argv, '/encryption')).toBe('AES(Twofish(Serpent))');
    expect(after(single?.argv, '/encryption')).toBe('Serpent');
    // Half of the 1 GiB volume, in whole MiB.
    expect(after(single?.argv, '/size')).toBe('512M');
    expect(single?.shell).toBe('powershell');
  });

  it('gives no command without a drive letter or a size to bound the container', () => {
    expect(veracryptWindowsCommands(null, { encryption: 'AES', kdf }, 'x', GIB)).toEqual([]);
    expect(veracryptWindowsCommands('D:', { encryption: 'AES', kdf }, 'x', null)).toEqual([]);
  });
});
