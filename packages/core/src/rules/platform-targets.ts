import { EncplanError } from '../errors.js';
import type { TargetTool } from './plan-options.js';

/** The platforms encplan plans for (Node's process.platform names). */
export type PlanPlatform = 'linux' | 'darwin' | 'win32';

const PLATFORM_NAMES: Readonly<Record<PlanPlatform, string>> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
};

/**
 * Which target tools exist on which platform. LUKS2 is Linux's dm-crypt format (cryptsetup(8)); APFS volume
 * encryption and FileVault are macOS's (diskutil(8), fdesetup(8)); BitLocker is Windows' (manage-bde); VeraCrypt
 * runs on all three (VeraCrypt documentation, "Command Line Usage for Windows" / "for Linux and macOS").
 */
export const TARGET_TOOLS_BY_PLATFORM: Readonly<Record<PlanPlatform, readonly TargetTool[]>> = {
  linux: ['luks2', 'veracrypt'],
  darwin: ['apfs', 'veracrypt'],
  win32: ['bitlocker', 'veracrypt'],
};

/** The tool a plan is for when none is asked for: the platform's own full-disk encryption. */
export const DEFAULT_TARGET_TOOL: Readonly<Record<PlanPlatform, TargetTool>> = {
  linux: 'luks2',
  darwin: 'apfs',
  win32: 'bitlocker',
};

const TOOL_HOME: Readonly<Record<TargetTool, string>> = {
  luks2: 'LUKS2 is the Linux kernel’s dm-crypt format',
  apfs: 'APFS encryption is macOS’s',
  bitlocker: 'BitLocker is Windows’',
  veracrypt: 'VeraCrypt runs everywhere',
};

/**
 * Refuses a target tool that does not exist on the assessed platform (issue 10 item 3: commands in the
 * platform's own syntax, or none). INVALID_ARGUMENT, so the CLI exits with the usage code and renders nothing.
 * A platform encplan does not plan for ('other', null) refuses nothing here: assess refuses it on its own.
 */
export function refuseForeignTarget(platform: string | null, tool: TargetTool | null | undefined): void {
  if (
    tool === null ||
    tool === undefined ||
    !(platform === 'linux' || platform === 'darwin' || platform === 'win32')
  ) {
    return;
  }
  const available = TARGET_TOOLS_BY_PLATFORM[platform];
  if (available.includes(tool)) {
    return;
  }
  throw new EncplanError(
    'INVALID_ARGUMENT',
    `--target ${tool} does not exist on ${PLATFORM_NAMES[platform]}: ${TOOL_HOME[tool]}, so there is no command to give for this machine.`,
    {
      hint: `On ${PLATFORM_NAMES[platform]}, plan for ${available.map((name) => `--target ${name}`).join(' or ')}.`,
    },
  );
}
