import { Flags } from '@oclif/core';
import { okEnvelope, TOOL_VERSION } from '@encplan/core';
import { createNodeHost, createRunner, runCipherBenchmark } from '@encplan/core/node';
import { EncplanCommand } from '../../base-command.js';
import { renderCipherBenchmark } from '../../render/cipher-benchmark.js';

/** `encplan benchmark ciphers`: cipher and key-derivation speed, and which kernel AES driver disks would use. */
export default class BenchmarkCiphers extends EncplanCommand {
  static override summary = 'Measure cipher and key-derivation speed, and check the kernel AES driver.';
  static override description =
    'Runs cryptsetup benchmark (kernel crypto, one core) for aes-xts 512/256 and Adiantum, openssl speed on one and ' +
    'on all cores (aes-128-xts, aes-256-xts, chacha20), PBKDF2 per hash and argon2id, and reads /proc/crypto. ' +
    'Memory only: no disk is touched.';
  static override flags = {
    quick: Flags.boolean({ summary: 'Short runs (about 30 s): 1 s per OpenSSL figure, encryption only.', default: false }),
  };
  protected readonly schemaName = 'encplan/cipher-benchmark';

  async run(): Promise<void> {
    const { flags } = await this.parse(BenchmarkCiphers);
    this.jsonOutput = flags.json;
    const host = createNodeHost(createRunner({ searchPath: process.env.PATH ?? '' }));
    const controller = new AbortController();
    const stop = () => {
      controller.abort();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const { facts, warnings } = await runCipherBenchmark(host, {
        quick: flags.quick,
        signal: controller.signal,
        onProgress: (step) => process.stderr.write(`encplan: ${step}…\n`),
      });
      if (flags.json) {
        this.emitJson(okEnvelope({ schema: this.schemaName, schemaVersion: [1, 0], toolVersion: TOOL_VERSION, generatedAt: new Date() }, facts, warnings));
      } else {
        process.stdout.write(renderCipherBenchmark(facts, warnings));
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}
