import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_FILE, readBundleDirectory } from './bundle-files.js';
import { toErrorBody } from '../contract/envelope.js';
import { EncplanError } from '../errors.js';
import type { FleetDocument } from '../fleet/fleet-report.js';
import type { AssessEnvironment } from '../use-cases/assess.js';
import { assessBundle } from '../use-cases/collect.js';

/** Larger than any assessment encplan writes (a few hundred KiB) by far; a bigger file is not one of ours. */
const FLEET_DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

/** File names read as documents inside folders: assessments, and Ansible local facts written by the role. */
const DOCUMENT_EXTENSIONS = new Set(['.json', '.fact']);

/**
 * Reads every assessment under `paths` for `encplan fleet report`: JSON files (`.json`, `.fact`), folders
 * (recursively) and bundle directories made by `encplan collect` (assessed again by replay, touching nothing
 * here). A file that cannot be read or parsed becomes a document with an error, so the rest is still reported.
 * The machine of a document is the first folder below the PATH it was found under (`fetched/web1/…` → `web1`),
 * else its file (or bundle folder) name without the extension.
 */
export async function readFleetDocuments(
  paths: readonly string[],
  clock: AssessEnvironment['clock'],
): Promise<FleetDocument[]> {
  const documents: FleetDocument[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => null);
    if (info === null) {
      throw new EncplanError('INVALID_ARGUMENT', `${given} does not exist.`, {
        hint: 'Give assessment files, folders of them, or bundle directories.',
      });
    }
    if (info.isDirectory()) {
      documents.push(...(await readFolder(given, given, clock)));
    } else if (path.basename(given) === BUNDLE_FILE) {
      documents.push(await readBundle(given, path.basename(path.dirname(path.resolve(given))), clock));
    } else {
      documents.push(await readDocument(given, stripExtension(path.basename(given))));
    }
  }
  return documents;
}

async function readFolder(
  root: string,
  folder: string,
  clock: AssessEnvironment['clock'],
): Promise<FleetDocument[]> {
  const machineOf = (entry: string) => {
    const [first = entry] = path.relative(root, entry).split(path.sep);
    return stripExtension(first === '' ? path.basename(path.resolve(root)) : first);
  };
  const entries = await readdir(folder, { withFileTypes: true });
  if (entries.some((entry) => entry.isFile() && entry.name === BUNDLE_FILE)) {
    return [await readBundle(folder, machineOf(folder), clock)];
  }
  const documents: FleetDocument[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      documents.push(...(await readFolder(root, full, clock)));
    } else if (entry.isFile() && DOCUMENT_EXTENSIONS.has(path.extname(entry.name))) {
      documents.push(await readDocument(full, machineOf(full)));
    }
  }
  return documents;
}

async function readDocument(file: string, machine: string): Promise<FleetDocument> {
  try {
    const info = await stat(file);
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
    const text = await readFile(file, 'utf8');
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
  }
}

async function readBundle(
  location: string,
  machine: string,
  clock: AssessEnvironment['clock'],
): Promise<FleetDocument> {
  try {
    const envelope = await assessBundle(await readBundleDirectory(location), clock);
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
