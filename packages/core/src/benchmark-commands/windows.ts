import { EncplanError } from '../errors.js';
import type { CommandSpec } from '../ports.js';
import { assertVhdPath } from '../targets/bitlocker/cleanup.js';

/** One of CrystalDiskMark 8's four default tests. */
export interface CrystalDiskMarkProfile {
  readonly name: 'SEQ1M Q8T1' | 'SEQ1M Q1T1' | 'RND4K Q32T1' | 'RND4K Q1T1';
  readonly blockSize: '1M' | '4K';
  readonly random: boolean;
  readonly queueDepth: number;
  readonly threads: number;
}

/**
 * CrystalDiskMark 8's default profile: SEQ 1MiB Q8T1, SEQ 1MiB Q1T1, RND 4KiB Q32T1, RND 4KiB Q1T1 — the
 * eight lines (each read and write) of its result (fixtures/crystaldiskmark, both captures).
 */
export const CRYSTALDISKMARK_PROFILES: readonly CrystalDiskMarkProfile[] = [
  { name: 'SEQ1M Q8T1', blockSize: '1M', random: false, queueDepth: 8, threads: 1 },
  { name: 'SEQ1M Q1T1', blockSize: '1M', random: false, queueDepth: 1, threads: 1 },
  { name: 'RND4K Q32T1', blockSize: '4K', random: true, queueDepth: 32, threads: 1 },
  { name: 'RND4K Q1T1', blockSize: '4K', random: true, queueDepth: 1, threads: 1 },
];

/**
 * The DiskSpd run of one profile and direction against a test file (DiskSpd wiki, "Command line and
 * parameters"): -b block size, -o outstanding I/Os per thread, -t threads, -r random (else sequential),
 * -w0 / -w100 all reads / all writes, -Sh no software cache and write-through, -L latency statistics,
 * -Zr random write buffers (so a compressing drive cannot shortcut), -c creates the file, -d seconds,
 * -W warm-up seconds. The path goes last; a path that could read as an option is refused.
 */
export function diskspdProfileRun(request: {
  readonly profile: CrystalDiskMarkProfile;
  readonly direction: 'read' | 'write';
  readonly testFile: string;
  readonly fileSizeMebibytes: number;
  readonly durationSeconds: number;
}): CommandSpec {
  if (!/^[A-Za-z]:\\[^"<>|?*\r\n]+$/.test(request.testFile)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The DiskSpd test file must be an absolute Windows path: ${request.testFile}`,
    );
  }
  if (
    !Number.isInteger(request.durationSeconds) ||
    request.durationSeconds < 1 ||
    !Number.isInteger(request.fileSizeMebibytes) ||
    request.fileSizeMebibytes < 16
  ) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      'DiskSpd needs a whole number of seconds and at least 16 MiB of test file.',
    );
  }
  const { profile } = request;
  return {
    tool: 'diskspd',
    args: [
      `-b${profile.blockSize}`,
      `-o${String(profile.queueDepth)}`,
      `-t${String(profile.threads)}`,
      ...(profile.random ? ['-r'] : []),
      request.direction === 'read' ? '-w0' : '-w100',
      '-Sh',
      '-L',
      '-Zr',
      '-W2',
      `-d${String(request.durationSeconds)}`,
      `-c${String(request.fileSizeMebibytes)}M`,
      request.testFile,
    ],
    timeoutMs: (request.durationSeconds + 60) * 1000,
  };
}

/**
 * `"VeraCrypt Format.exe" /create …` for a scratch file container on Windows (VeraCrypt documentation,
 * "Command Line Usage", VeraCrypt Format). Its Windows command line takes a password only as `/password
 * <text>` in argv and has no stdin option, so a benchmark container is keyed by a keyfile encplan wrote
 * (random bytes, removed afterwards) and no password: the secret is in a file, never in argv.
 */
export function veracryptWindowsCreateContainer(request: {
  readonly containerPath: string;
  readonly keyfilePath: string;
  readonly sizeMebibytes: number;
  readonly encryption: 'AES' | 'Serpent' | 'Twofish';
  readonly hash: 'sha512' | 'sha256';
  readonly pim: number;
}): { readonly executable: 'VeraCrypt Format.exe'; readonly args: readonly string[] } {
  for (const path of [request.containerPath, request.keyfilePath]) {
    if (!/^[A-Za-z]:\\[^"<>|?*\r\n]+$/.test(path)) {
      throw new EncplanError('INVALID_ARGUMENT', `VeraCrypt paths must be absolute Windows paths: ${path}`);
    }
  }
  if (!Number.isInteger(request.pim) || request.pim < 0) {
    throw new EncplanError('INVALID_ARGUMENT', 'The PIM must be a whole number, 0 for the default.');
  }
  return {
    executable: 'VeraCrypt Format.exe',
    args: [
      '/create',
      request.containerPath,
      '/size',
      `${String(request.sizeMebibytes)}M`,
      '/encryption',
      request.encryption,
      '/hash',
      request.hash,
      '/pim',
      String(request.pim),
      '/keyfile',
      request.keyfilePath,
      '/filesystem',
      'NTFS',
      '/silent',
    ],
  };
}

/**
 * A BitLocker test volume for plain-versus-encrypted DiskSpd runs: a dynamic VHDX made and attached with
 * New-VHD/Mount-VHD (Microsoft, "New-VHD", "Mount-VHD"; Hyper-V module), initialised GPT, one NTFS partition
 * with a drive letter, then `Enable-BitLocker -EncryptionMethod XtsAes256 -UsedSpaceOnly -PasswordProtector`
 * (Microsoft, "Enable-BitLocker"); it waits until Get-BitLockerVolume says FullyEncrypted and prints that
 * volume as JSON. The password is read from stdin (`[Console]::In.ReadLine()`), never argv. Single quotes in
 * the path are refused above, so it is a verbatim PowerShell string.
 */
export function bitlockerVhdSetup(request: {
  readonly vhdPath: string;
  readonly sizeMebibytes: number;
  readonly password: string;
}): CommandSpec {
  assertVhdPath(request.vhdPath);
  if (request.password === '' || /[\r\n]/.test(request.password)) {
    throw new EncplanError('INVALID_ARGUMENT', 'A test-volume password must be one non-empty line.');
  }
  const script = [
    "$ErrorActionPreference = 'Stop'",
    '$password = ConvertTo-SecureString ([Console]::In.ReadLine()) -AsPlainText -Force',
    `$vhd = New-VHD -Path '${request.vhdPath}' -SizeBytes ${String(request.sizeMebibytes)}MB -Dynamic`,
    `$disk = Mount-VHD -Path '${request.vhdPath}' -Passthru | Get-Disk`,
    'Initialize-Disk -Number $disk.Number -PartitionStyle GPT',
    '$partition = New-Partition -DiskNumber $disk.Number -UseMaximumSize -AssignDriveLetter',
    "$null = Format-Volume -Partition $partition -FileSystem NTFS -NewFileSystemLabel 'encplan-bench' -Confirm:$false",
    '$mount = "$($partition.DriveLetter):"',
    '$null = Enable-BitLocker -MountPoint $mount -EncryptionMethod XtsAes256 -UsedSpaceOnly -PasswordProtector -Password $password',
    "for ($i = 0; $i -lt 600 -and (Get-BitLockerVolume -MountPoint $mount).VolumeStatus -ne 'FullyEncrypted'; $i++) { Start-Sleep -Seconds 1 }",
    "Get-BitLockerVolume -MountPoint $mount | Select-Object MountPoint, @{n='VolumeStatus';e={[string]$_.VolumeStatus}}, @{n='EncryptionMethod';e={[string]$_.EncryptionMethod}}, EncryptionPercentage | ConvertTo-Json -Compress",
  ].join('\n');
  return {
    tool: 'powershell',
    args: ['-NoProfile', '-NonInteractive', '-Command', script],
    stdin: `${request.password}\n`,
    timeoutMs: 900_000,
  };
}
