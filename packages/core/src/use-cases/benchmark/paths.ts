// The benchmark's POSIX path helpers live with the benchmark containers that use them (targets/posix-paths.ts).
export { baseName, joinPath, randomToken } from '../../targets/posix-paths.js';
