import { Flags } from '@oclif/core';
import {
  cipherBenchmarkDocument,
  createProbeContext,
  renderDocumentText,
  runCipherBenchmark,
  toCipherBenchmarkView,
} from '@encplan/core';
import { createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../../base-command.js';
import { terminalTextOptions } from '../../terminal-style.js';

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
    this.jsonOutput = flags.json;
    const environment = createEnvironment();
    const controller = new AbortController();
    const stop = () => {
      controller.abort();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const context = createProbeContext(environment.host, controller.signal);
      const result = await runCipherBenchmark(context, {
        quick: flags.quick,
        onProgress: (step) => process.stderr.write(`encplan: ${step}…\n`),
      });
      if (flags.json) {
        this.emitJson(cipherBenchmarkDocument.ok(result, context.warnings, environment.clock.now()));
      } else {
        this.log(
          renderDocumentText(toCipherBenchmarkView(result, context.warnings), terminalTextOptions(false)),
        );
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}
