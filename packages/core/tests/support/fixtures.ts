import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's fixtures/ directory. */
export const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

/** Reads a fixture file as text, byte for byte (no newline conversion). */
export function fixture(relative: string): string {
  return readFileSync(path.join(FIXTURES, relative), 'utf8');
}

/** Reads a fixture case's command.json. */
export function fixtureCommand(caseDirectory: string): { tool: string; argv: string[]; exitCode: number } {
  return JSON.parse(fixture(`${caseDirectory}/command.json`)) as {
    tool: string;
    argv: string[];
    exitCode: number;
  };
}
