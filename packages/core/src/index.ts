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
export * from './domain/io-benchmark.js';
export * from './parsers/fio/parse-fio-json.js';
export * from './plan/fio-jobs.js';
export * from './analyses/run-summary.js';
export * from './analyses/io-overhead.js';
export * from './parsers/losetup/parse-losetup-list.js';
export * from './parsers/veracrypt/parse-veracrypt-list.js';
export * from './parsers/diskutil/parse-diskutil-encryption.js';
export * from './plan/encrypted-backends.js';
export * from './parsers/proc/parse-mountinfo.js';
export * from './domain/cleanup.js';
