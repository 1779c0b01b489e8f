import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

/** `fdesetup status` on macOS. */
export interface FdesetupStatus {
  readonly state: 'on' | 'off' | 'encrypting' | 'decrypting';
  /** "Percent completed = N" while converting. */
  readonly percentCompleted: number | null;
}

/**
 * Parses `fdesetup status`. No captured output is public; the format is fdesetup(8)'s: "FileVault is
 * On." / "FileVault is Off.", and while converting "Encryption in progress: Percent completed = N" or
 * "Decryption in progress: …" (fixtures/fdesetup/PROVENANCE.md says so). Anything else fails closed.
 */
export function parseFdesetupStatus(text: string): FdesetupStatus {
  const lines = splitOutputLines('fdesetup', text)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const percentLine = lines
    .map((line) => /Percent completed = (\d{1,3}(?:\.\d+)?)/.exec(line))
    .find((match) => match !== null);
  const percentCompleted = percentLine?.[1] === undefined ? null : Number(percentLine[1]);
  if (lines.some((line) => /^Encryption in progress/i.test(line))) {
    return { state: 'encrypting', percentCompleted };
  }
  if (lines.some((line) => /^Decryption in progress/i.test(line))) {
    return { state: 'decrypting', percentCompleted };
  }
  if (lines.includes('FileVault is On.')) {
    return { state: 'on', percentCompleted: null };
  }
  if (lines.includes('FileVault is Off.')) {
    return { state: 'off', percentCompleted: null };
  }
  throw unrecognizedOutput('fdesetup', 'no "FileVault is On." / "FileVault is Off." line', lines[0]);
}
