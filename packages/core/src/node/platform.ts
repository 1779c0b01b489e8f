import type { Host } from '../ports.js';

/** This process's platform as the Host port names it (anything but Linux, macOS and Windows is `other`). */
export function currentPlatform(): Host['platform'] {
  return process.platform === 'linux' || process.platform === 'darwin' || process.platform === 'win32'
    ? process.platform
    : 'other';
}
