import type { KernelCryptoFacts } from '../../domain/cipher.js';
import type { Warning } from '../../domain/warning.js';
import { deriveKernelCryptoFacts } from '../../parsers/proc-crypto/kernel-crypto-facts.js';
import { parseProcCrypto } from '../../parsers/proc-crypto/parse-proc-crypto.js';
import type { Host } from '../../ports.js';
import { attemptProbeStep, type ProbeResult } from './probe-step.js';

/**
 * Reads which drivers the kernel's crypto API would use for disk encryption: /proc/crypto, plus the running
 * kernel's module lists to tell whether Adiantum could be loaded. Facts are null where there is no /proc/crypto.
 */
export async function probeKernelCrypto(host: Host): Promise<ProbeResult<KernelCryptoFacts | null>> {
  const warnings: Warning[] = [];
  const text = await attemptProbeStep(warnings, '/proc/crypto', () => host.readText('/proc/crypto'));
  if (text === null) {
    if (warnings.length === 0) {
      warnings.push({ code: 'PLATFORM_LIMITED', message: 'There is no /proc/crypto (not Linux): kernel crypto drivers are unknown.', source: '/proc/crypto' });
    }
    return { facts: null, warnings };
  }
  const entries = await attemptProbeStep(warnings, '/proc/crypto', () => Promise.resolve(parseProcCrypto(text)));
  if (entries === null) {
    return { facts: null, warnings };
  }
  const release = (await attemptProbeStep(warnings, '/proc/sys/kernel/osrelease', () => host.readText('/proc/sys/kernel/osrelease')))?.trim();
  const readModules = async (file: string) =>
    release === undefined || release === '' ? null : attemptProbeStep(warnings, `/lib/modules/${release}/${file}`, () => host.readText(`/lib/modules/${release}/${file}`));
  const modules = { builtin: await readModules('modules.builtin'), dep: await readModules('modules.dep') };
  return { facts: deriveKernelCryptoFacts(entries, modules), warnings };
}
