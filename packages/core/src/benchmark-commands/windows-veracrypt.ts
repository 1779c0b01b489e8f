import { EncplanError } from '../errors.js';
import type { CommandSpec } from '../ports.js';
import { powershellScript } from '../targets/container-steps.js';
import { assertVeracryptLetter } from '../targets/veracrypt/cleanup.js';
import { veracryptWindowsCreateContainer } from './windows.js';

/**
 * VeraCrypt's Windows command line for the plain-versus-encrypted benchmark (VeraCrypt documentation, "Command
 * Line Usage for Windows"). No secret is ever in argv: the container is keyed by a keyfile of random bytes that
 * encplan writes into the user's private temporary directory and removes afterwards, with no password.
 * - `VeraCrypt Format.exe /create` accepts a keyfile without /password: its command-line path aborts with
 *   ERR_PASSWORD_MISSING only when there is neither (`CmdVolumePassword.Length == 0 && !FirstCmdKeyFile`,
 *   veracrypt/VeraCrypt src/Format/Tcformat.c, commit 014ed77130f1812d76f8086e5507e11a880799e4), and checks
 *   the password length only when one was given.
 * - `VeraCrypt.exe /volume … /keyfile … /tryemptypass y` mounts with an empty password and the keyfile
 *   ("/tryemptypass: ONLY when … a keyfile is specified in the command line … try to mount using an empty
 *   password and the keyfile"); the documented alternative `/p ""` is not used, so no /password at all.
 */

/** VeraCrypt's default hash for new volumes; asked explicitly so mounting need not try every PRF. */
const HASH = 'sha512';

function assertWindowsPath(path: string, what: string): void {
  // Quotes are refused so the path is one PowerShell literal and one Windows command-line argument.
  if (!/^[A-Za-z]:\\[^"'<>|?*\r\n]+$/.test(path)) {
    throw new EncplanError('INVALID_ARGUMENT', `${what} must be an absolute Windows path: ${path}`);
  }
}

/**
 * One Windows command line from arguments, quoted as CommandLineToArgvW reads it back (Microsoft, "Parsing C++
 * command-line arguments"): an argument with a space or tab, or an empty one, goes in double quotes. Arguments
 * holding a double quote are refused above; only backslashes at the end of a quoted argument need doubling.
 */
export function windowsCommandLine(args: readonly string[]): string {
  // Inside quotes, backslashes before the closing quote are doubled so it is not read as an escaped quote.
  return args
    .map((arg) => (arg === '' || /[ \t]/.test(arg) ? `"${arg.replace(/(\\+)$/, '$1$1')}"` : arg))
    .join(' ');
}

/** A PowerShell single-quoted literal (`'` doubled). */
function psLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A free drive letter for the test volume, searched from Z down to D (Get-PSDrive lists the letters in use);
 * prints one letter or nothing.
 */
export function veracryptWindowsFreeLetter(): CommandSpec {
  return powershellScript(
    '$used = @(Get-PSDrive -PSProvider FileSystem | ForEach-Object { $_.Name.ToUpper() }); [char[]](90..68) | ForEach-Object { [string]$_ } | Where-Object { $used -notcontains $_ } | Select-Object -First 1',
    30_000,
  );
}

/** The letter `veracryptWindowsFreeLetter` printed; TOOL_FAILED when every letter is taken. */
export function parseFreeLetter(stdout: string): string {
  const letter = stdout.trim().toUpperCase();
  if (letter === '') {
    throw new EncplanError('TOOL_FAILED', 'No drive letter is free for a VeraCrypt test volume.', {
      details: { tool: 'powershell' },
    });
  }
  assertVeracryptLetter(letter);
  return letter;
}

/**
 * Creates the container with `VeraCrypt Format.exe` (AES, SHA-512, NTFS, keyfile, no password), found next to
 * VeraCrypt.exe. It is a Windows GUI program, so PowerShell starts it with `Start-Process -Wait -PassThru` to
 * wait for it and read its exit status (`&` would return at once); NTFS needs an administrator, as the BitLocker
 * test volume does.
 */
export function veracryptWindowsFormat(request: {
  readonly veracryptPath: string;
  readonly containerPath: string;
  readonly keyfilePath: string;
  readonly sizeMebibytes: number;
}): CommandSpec {
  assertWindowsPath(request.veracryptPath, 'VeraCrypt.exe');
  assertWindowsPath(request.containerPath, 'The VeraCrypt container');
  assertWindowsPath(request.keyfilePath, 'The keyfile');
  if (!Number.isInteger(request.sizeMebibytes) || request.sizeMebibytes < 16) {
    throw new EncplanError('INVALID_ARGUMENT', 'A VeraCrypt test container needs at least 16 MiB.');
  }
  const create = veracryptWindowsCreateContainer({
    containerPath: request.containerPath,
    keyfilePath: request.keyfilePath,
    sizeMebibytes: request.sizeMebibytes,
    encryption: 'AES',
    hash: HASH,
    pim: 0,
  });
  const script = [
    "$ErrorActionPreference = 'Stop'",
    `$format = Join-Path (Split-Path -Parent ${psLiteral(request.veracryptPath)}) ${psLiteral(create.executable)}`,
    `$p = Start-Process -FilePath $format -ArgumentList ${psLiteral(windowsCommandLine(create.args))} -Wait -PassThru`,
    'exit $p.ExitCode',
  ].join('\n');
  return powershellScript(script, 900_000);
}

/** `VeraCrypt.exe` mounting the container at `letter` with the keyfile and an empty password, silently. */
export function veracryptWindowsMountArgs(request: {
  readonly containerPath: string;
  readonly keyfilePath: string;
  readonly letter: string;
}): string[] {
  assertWindowsPath(request.containerPath, 'The VeraCrypt container');
  assertWindowsPath(request.keyfilePath, 'The keyfile');
  assertVeracryptLetter(request.letter);
  return [
    '/volume',
    request.containerPath,
    '/letter',
    request.letter,
    '/keyfile',
    request.keyfilePath,
    '/tryemptypass',
    'y',
    '/hash',
    HASH,
    '/quit',
    '/silent',
  ];
}

/**
 * What Windows says is mounted at `letter` (Get-Volume as JSON), the check that the VeraCrypt volume is there
 * before anything is measured on it.
 */
export function veracryptWindowsVolumeCheck(letter: string): CommandSpec {
  assertVeracryptLetter(letter);
  return powershellScript(
    `Get-Volume -DriveLetter '${letter}' | Select-Object @{n='DriveLetter';e={[string]$_.DriveLetter}}, FileSystem, Size | ConvertTo-Json -Compress`,
    30_000,
  );
}
