// The macOS and Windows parsers (issue 13), exported as one group.
export * from './plist/parse-plist.js';
export * from './diskutil/diskutil-document.js';
export * from './diskutil/parse-diskutil-info.js';
export * from './diskutil/parse-diskutil-list.js';
export * from './diskutil/parse-diskutil-apfs-list.js';
export * from './system-profiler/parse-system-profiler.js';
export * from './sysctl/parse-sysctl-cpu.js';
export * from './fdesetup/parse-fdesetup-status.js';
export * from './fsutil/parse-disable-delete-notify.js';
export * from './manage-bde/parse-manage-bde-status.js';
export * from './powershell/parse-storage-json.js';
export * from './diskspd/parse-diskspd-text.js';
export * from './crystaldiskmark/parse-crystaldiskmark-text.js';
export * from '../benchmark-commands/darwin.js';
export * from '../benchmark-commands/windows.js';
