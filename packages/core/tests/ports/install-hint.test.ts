import { describe, expect, it } from 'vitest';
import { installHint, TOOL_NAMES } from '../../src/ports.js';

describe('installHint: how to get a missing tool on the platform that missed it', () => {
  it('names the Debian package on Linux', () => {
    expect(installHint('smartctl', 'linux')).toBe('Install it, e.g. apt-get install smartmontools.');
    expect(installHint('pkexec', 'linux')).toBe('Install it, e.g. apt-get install pkexec.');
    // Not a Debian package: never an apt-get line that cannot work.
    expect(installHint('veracrypt', 'linux')).toBe('Install it: veracrypt from veracrypt.fr.');
  });

  it('never tells a Mac or a Windows machine to apt-get', () => {
    for (const tool of TOOL_NAMES) {
      expect(installHint(tool, 'darwin')).not.toContain('apt-get');
      expect(installHint(tool, 'win32')).not.toContain('apt-get');
    }
  });

  it('names Homebrew on a Mac, the project installer on Windows, and says a built-in tool is built in', () => {
    expect(installHint('smartctl', 'darwin')).toBe('Install it: brew install smartmontools.');
    expect(installHint('fio', 'win32')).toContain('github.com/axboe/fio');
    expect(installHint('diskutil', 'darwin')).toBe('It is part of macOS; check PATH.');
    expect(installHint('manage-bde', 'win32')).toBe('It is part of Windows; check PATH.');
    expect(installHint('lsblk', 'darwin')).toBe('encplan does not use it on macOS.');
  });
});
