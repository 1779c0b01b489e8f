/**
 * The exact argv (after the tool name) of every command an encrypted-target backend runs. Pure, so tests and a
 * dry run see the same arrays the adapters execute. Secrets never appear here: keys go in a 0600 key file in a
 * private temp directory, passphrases on stdin.
 */

// Every target's benchmark argv lives in its folder (targets/<id>/benchmark.ts), the shared tools' in
// targets/container-steps.ts; this module gathers them for the cleanup registry and the runners.
export {
  ENCPLAN_RESOURCE_PREFIX,
  dmsetupArgs,
  losetupArgs,
  mkfsExt4Args,
  mountArgs,
  pidOfResourceName,
  resourceName,
} from '../targets/container-steps.js';
export { fscryptArgs, fscryptEnvironment, type FscryptState } from '../targets/fscrypt/benchmark.js';
export { luks2VariantName, type Luks2Variant } from '../domain/io-benchmark.js';
export { cryptsetupArgs } from '../targets/luks2/benchmark.js';
export { veracryptArgs, type VeracryptVariant } from '../targets/veracrypt/benchmark.js';
export { hdiutilArgs } from '../targets/apfs/benchmark.js';
