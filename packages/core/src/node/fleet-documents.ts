import { fstatSync, openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_FILE, readBundleDirectory } from './bundle-files.js';
import { toErrorBody } from '../contract/envelope.js';
import { EncplanError } from '../errors.js';
import type { FleetDocument } from '../fleet/fleet-report.js';
import type { AssessEnvironment } from '../use-cases/assess.js';
import { assessAllBundle, assessBundle } from '../use-cases/collect.js';

/** Larger than any assessment encplan writes (a few hundred KiB) by far; a bigger file is not one of ours. */
const FLEET_DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

/** File names read as documents inside folders: assessments, and Ansible local facts written by the role. */
const DOCUMENT_EXTENSIONS = new Set(['.json', '.fact']);

/**
 * Reads every assessment under `paths` for `encplan fleet report`, one document at a time: JSON files (`.json`,
 * `.fact`), folders (recursively, in name order) and bundle directories made by `encplan collect` or `collect
 * --all` (assessed again by replay, touching nothing here). Only the document being yielded is held, so a fleet
 * of any size is read in constant memory. A file that cannot be read or parsed becomes a document with an error,
 * so the rest is still reported. The machine of a document is the first folder below the PATH it was found
 * under (`fetched/web1/…` → `web1`), else its file (or bundle folder) name without the extension.
 */
export async function readFleetDocuments(
  paths: readonly string[],
  clock: AssessEnvironment['clock'],
): Promise<AsyncGenerator<FleetDocument>> {
  const infos: { given: string; directory: boolean }[] = [];
  // Every PATH is checked before the first document, so a typo fails before any output, not after an hour.
  for (const given of paths) {
    const info = await stat(given).catch(() => null);
    if (info === null) {
      throw new EncplanError('INVALID_ARGUMENT', `${given} does not exist.`, {
        hint: 'Give assessment files, folders of them, or bundle directories.',
      });
    }
    infos.push({ given, directory: info.isDirectory() });
  }
  return documentsUnder(infos, clock);
}

async function* documentsUnder(
  infos: readonly { given: string; directory: boolean }[],
  clock: AssessEnvironment['clock'],
): AsyncGenerator<FleetDocument> {
  for (const { given, directory } of infos) {
    if (directory) {
      yield* readFolder(given, given, clock);
    } else if (path.basename(given) === BUNDLE_FILE) {
      yield await readBundle(given, path.basename(path.dirname(path.resolve(given))), clock);
    } else {
      yield readDocument(given, stripExtension(path.basename(given)));
    }
  }
}

async function* readFolder(
  root: string,
  folder: string,
  clock: AssessEnvironment['clock'],
): AsyncGenerator<FleetDocument> {
  const machineOf = (entry: string) => {
    const [first = entry] = path.relative(root, entry).split(path.sep);
    return stripExtension(first === '' ? path.basename(path.resolve(root)) : first);
  };
  // Synchronous reads: one small file after another, a round trip through the thread pool per call costs more
  // than the read itself (a fleet of 100,000 files spent more time waiting than parsing).
  const entries = readdirSync(folder, { withFileTypes: true });
  if (entries.some((entry) => entry.isFile() && entry.name === BUNDLE_FILE)) {
    yield await readBundle(folder, machineOf(folder), clock);
    return;
  }
  // Names only: a folder of 100,000 machines keeps 100,000 short strings while it is walked, not its entries.
  const names = entries
    .filter(
      (entry) => entry.isDirectory() || (entry.isFile() && DOCUMENT_EXTENSIONS.has(path.extname(entry.name))),
    )
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort((a, b) => a.localeCompare(b));
  for (const name of names) {
    if (name.endsWith('/')) {
      yield* readFolder(root, path.join(folder, name.slice(0, -1)), clock);
      continue;
    }
    const full = path.join(folder, name);
    yield readDocument(full, machineOf(full));
  }
}

function readDocument(file: string, machine: string): FleetDocument {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const info = fstatSync(fd);
    if (info.size > FLEET_DOCUMENT_MAX_BYTES) {
      return {
        source: file,
        machine,
        error: {
          code: 'DOCUMENT_INVALID',
          message: `${String(info.size)} bytes is larger than any assessment (limit ${String(FLEET_DOCUMENT_MAX_BYTES)}).`,
        },
      };
    }
    const text = readFileSync(fd, 'utf8');
    try {
      return { source: file, machine, json: JSON.parse(text) as unknown };
    } catch (error) {
      return {
        source: file,
        machine,
        error: {
          code: 'DOCUMENT_INVALID',
          message: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        },
      };
    }
  } catch (error) {
    return {
      source: file,
      machine,
      error: { code: 'DOCUMENT_UNREADABLE', message: error instanceof Error ? error.message : String(error) },
    };
  } finally {
    if (fd !== null) {
      closeSync(fd);
    }
  }
}

async function readBundle(
  location: string,
  machine: string,
  clock: AssessEnvironment['clock'],
): Promise<FleetDocument> {
  try {
    const bundle = await readBundleDirectory(location);
    // A `collect --all` bundle is every disk of the machine: replayed as `assess --all` (one row per disk).
    const envelope =
      bundle.all === true ? await assessAllBundle(bundle, clock) : await assessBundle(bundle, clock);
    return { source: location, machine, json: envelope };
  } catch (error) {
    const body = toErrorBody(error);
    return { source: location, machine, error: { code: body.code, message: body.message } };
  }
}

function stripExtension(name: string): string {
  const extension = path.extname(name);
  return DOCUMENT_EXTENSIONS.has(extension) ? name.slice(0, -extension.length) : name;
}
