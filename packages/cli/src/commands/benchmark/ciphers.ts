import { Flags } from '@oclif/core';
import { findKernelCipherBottleneck, hasHardwareAes, okEnvelope, TOOL_VERSION, type Warning } from '@encplan/core';
import { createNodeHost, createRunner, probeCipherSpeed, probeKdfSpeed, probeKernelCrypto } from '@encplan/core/node';
import { EncplanCommand } from '../../base-command.js';
import { renderCipherBenchmark, type CipherBenchmarkResult } from '../../render/cipher-benchmark.js';

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
      const progress = (step: string) => {
        process.stderr.write(`encplan: ${step}…\n`);
      };
      const options = { quick: flags.quick, signal: controller.signal, onProgress: progress };
      const warnings: Warning[] = [];
      const kernel = await probeKernelCrypto(host);
      const info = await host.systemInfo().catch(() => null);
      const cores = info?.cpu.cores;
      const cipher = await probeCipherSpeed(host, { ...options, ...(typeof cores === 'number' ? { logicalCpuCount: cores } : {}) });
      const kdf = await probeKdfSpeed(host, options);
      warnings.push(...kernel.warnings, ...cipher.warnings, ...kdf.warnings);
      const cpuHasAes = info === null ? null : hasHardwareAes(info.cpuFlags);
      const finding =
        kernel.facts === null || cpuHasAes === null ? null : findKernelCipherBottleneck({ kernel: kernel.facts, cpuHasAes, cipherSpeed: cipher.facts });
      const result: CipherBenchmarkResult = {
        cpuHasAes,
        kernelCrypto: kernel.facts,
        cipherSpeed: cipher.facts,
        kdfSpeed: kdf.facts,
        findings: finding === null ? [] : [finding],
      };
      if (flags.json) {
        this.emitJson(okEnvelope({ schema: this.schemaName, schemaVersion: [1, 0], toolVersion: TOOL_VERSION, generatedAt: new Date() }, result, warnings));
      } else {
        process.stdout.write(renderCipherBenchmark(result, warnings));
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}
