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
export * from './domain/space.js';
export * from './domain/cpu.js';
export * from './domain/encryption.js';
export * from './domain/tooling.js';
export * from './domain/capabilities.js';
export * from './domain/target.js';
export * from './domain/identifier.js';
export * from './contract/assessment.js';
export * from './analyses/space.js';
export * from './parsers/lsblk/parse-lsblk-json.js';
export * from './parsers/blkid/parse-blkid-export.js';
export * from './parsers/sfdisk/parse-sfdisk-json.js';
export * from './parsers/cryptsetup/parse-luks-dump.js';
export * from './probes/probe-context.js';
export * from './probes/capabilities.js';
export * from './probes/machine.js';
export * from './probes/linux/resolve-target.js';
export * from './probes/linux/inventory.js';
export * from './use-cases/assess.js';
export * from './capture/bundle.js';
export * from './use-cases/collect.js';
export * from './use-cases/doctor.js';
export * from './parsers/hdparm/parse-hdparm-native-max.js';
