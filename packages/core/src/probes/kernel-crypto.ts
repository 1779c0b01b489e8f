import type { KernelCryptoFacts } from '../domain/cipher.js';
import { deriveKernelCryptoFacts } from '../parsers/proc-crypto/kernel-crypto-facts.js';
import { parseProcCrypto } from '../parsers/proc-crypto/parse-proc-crypto.js';
import { addWarning, attempt, type ProbeContext } from './probe-context.js';

/**
 * Reads which drivers the kernel's crypto API would use for disk encryption: /proc/crypto, plus the running
 * kernel's module lists to tell whether Adiantum could be loaded. Null (with a warning) where there is no /proc/crypto.
 */
export async function probeKernelCrypto(context: ProbeContext): Promise<KernelCryptoFacts | null> {
  const { host } = context;
  const text = await attempt(context, '/proc/crypto', 'Reading the kernel crypto drivers', () =>
    host.readText('/proc/crypto'),
  );
  if (text === null) {
    if (!context.warnings.some((warning) => warning.source === '/proc/crypto')) {
      addWarning(context, {
        code: 'PLATFORM_LIMITED',
        message: 'There is no /proc/crypto (not Linux): kernel crypto drivers are unknown.',
        source: '/proc/crypto',
      });
    }
    return null;
  }
  const entries = await attempt(context, '/proc/crypto', 'Reading the kernel crypto drivers', () =>
    Promise.resolve(parseProcCrypto(text)),
  );
  if (entries === null) {
    return null;
  }
  const release = (
    await attempt(context, '/proc/sys/kernel/osrelease', 'Finding the kernel module lists', () =>
      host.readText('/proc/sys/kernel/osrelease'),
    )
  )?.trim();
  const readModules = async (file: string) =>
    release === undefined || release === ''
      ? null
      : attempt(context, `/lib/modules/${release}/${file}`, 'Checking whether Adiantum can be loaded', () =>
          host.readText(`/lib/modules/${release}/${file}`),
        );
  const modules = { builtin: await readModules('modules.builtin'), dep: await readModules('modules.dep') };
  return deriveKernelCryptoFacts(entries, modules);
}
