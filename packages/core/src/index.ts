/**
 * @encplan/core: the environment-neutral entry. Types, parsers, rules, the JSON contract and use cases;
 * nothing here imports Node, so the desktop renderer can use it too. Node adapters: "@encplan/core/node".
 */
export * from './errors.js';
export * from './ports.js';
export * from './version.js';
export * from './domain/warning.js';
export * from './domain/source.js';
export * from './domain/device.js';
export * from './contract/envelope.js';
export * from './capture/capture.js';
export * from './capture/recording-host.js';
export * from './capture/replay-host.js';
export * from './domain/cipher.js';
export * from './domain/kdf.js';
export * from './parsers/cryptsetup-benchmark/parse-cryptsetup-benchmark.js';
export * from './parsers/cryptsetup-benchmark/cryptsetup-benchmark-facts.js';
export * from './parsers/openssl-speed/parse-openssl-speed.js';
export * from './parsers/openssl-speed/openssl-speed-facts.js';
export * from './parsers/proc-crypto/parse-proc-crypto.js';
export * from './parsers/proc-crypto/kernel-crypto-facts.js';
export * from './rules/kernel-cipher-bottleneck.js';
