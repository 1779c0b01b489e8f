/**
 * @encplan/core/node: the adapters that touch the world, curated. Only the CLI and the desktop main import
 * this; each export is documented where it is declared.
 */

// node: @encplan/core/node, the adapters that touch the world (Node, processes, files)
export { cleanupLeftovers } from '../use-cases/benchmark/cleanup-leftovers.js';

export { runIoBenchmark } from '../use-cases/benchmark/run-io-benchmark.js';
export { runPlatformIoBenchmark } from '../use-cases/benchmark/run-platform-io-benchmark.js';
export { readBundleDirectory, writeBundleDirectory } from './bundle-files.js';
export { createEnvironment, type NodeEnvironment } from './create-environment.js';
export { createNodeHost, defaultStateDirectory } from './host.js';
export { detectPrivilege } from './privilege/pkexec.js';
export { createRunner, deadlinesFired } from './process/run-command.js';
export { discardStartedEarly } from './process/spawn-tool.js';
export { startEarlyDiskCalls } from './early-disk-calls.js';
export { fileSystemErrorOf, MAX_BUNDLE_BYTES, readSavedToolOutput, readUserFile } from './user-files.js';
export { writeUserFile } from './write-user-file.js';
export { checkScratchDirectory } from './scratch-directory.js';
export { readFleetDocuments } from './fleet-documents.js';
export { writeFleetReport } from './fleet-report-stream.js';
export { loadChartRenderer } from './chart-renderer.js';
