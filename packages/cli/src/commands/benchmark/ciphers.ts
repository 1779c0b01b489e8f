import { Flags } from '@oclif/core';
import {
  cipherBenchmarkDocument,
  createProbeContext,
  runCipherBenchmark,
  toCipherBenchmarkView,
} from '@encplan/core';
import { createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../../base-command.js';
import { withCancellation } from '../../cancellation.js';
import { stderrStep } from '../../render/progress-bar.js';

/** `encplan benchmark ciphers`: cipher and key-derivation speed, and which kernel AES driver disks would use. */
export default class BenchmarkCiphers extends EncplanCommand {
  static override summary = 'Measure cipher and key-derivation speed, and check the kernel AES driver.';
  static override description =
    'Runs cryptsetup benchmark (kernel crypto, one core) for aes-xts 512/256 and Adiantum, openssl speed on one and ' +
    'on all cores (aes-128-xts, aes-256-xts, chacha20), PBKDF2 per hash and argon2id, and reads /proc/crypto. ' +
    'Memory only: no disk is touched.';
  static override flags = {
    quick: Flags.boolean({
      summary: 'Short runs (about 30 s): 1 s per OpenSSL figure, encryption only.',
      default: false,
    }),
  };
  readonly document = cipherBenchmarkDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(BenchmarkCiphers);
    const { host } = createEnvironment();
    const { result, warnings } = await withCancellation(async (signal) => {
      const context = createProbeContext(host, signal);
      const measured = await runCipherBenchmark(context, { quick: flags.quick, onProgress: stderrStep });
      return { result: measured, warnings: context.warnings };
    });
    if (flags.json) {
      this.emitOkEnvelope(result, warnings);
    } else {
      this.logDocumentText(toCipherBenchmarkView(result, warnings));
    }
  }
}
