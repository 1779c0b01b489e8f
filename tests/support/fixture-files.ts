import { deriveKernelCryptoFacts, parseProcCrypto, type KernelCryptoFacts } from '@encplan/core';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './fake-tools.js';

/** The case folders of fixtures/<tool>/, sorted: a new folder is a new test. */
export function fixtureCases(tool: string): string[] {
  return readdirSync(path.join(REPO_ROOT, 'fixtures', tool), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A file of a fixture case, as text. */
export function readFixture(tool: string, name: string, file = 'stdout'): string {
  return readFileSync(path.join(REPO_ROOT, 'fixtures', tool, name, file), 'utf8');
}

/** The argv recorded in a case's command.json (captured by scripts/capture-fixture.sh). */
export function fixtureArgv(tool: string, name: string): string[] {
  return (JSON.parse(readFixture(tool, name, 'command.json')) as { argv: string[] }).argv;
}

/** Kernel crypto facts of a fixtures/proc-crypto case, without module lists (Adiantum then reads "unknown"). */
export function kernelCryptoOfFixture(name: string): KernelCryptoFacts {
  return deriveKernelCryptoFacts(parseProcCrypto(readFixture('proc-crypto', name)), {
    builtin: null,
    dep: null,
  });
}
