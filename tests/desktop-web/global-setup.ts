import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Builds the renderer twice before the browser suites run: the production bundle `encplan ui` serves
 * (the CLI itself must be built with `npx tsc -b`, as for the e2e tests) and the fake-bridge bundle.
 */
export default async function setup(): Promise<void> {
  const configFile = fileURLToPath(
    new URL('../../packages/desktop/vite.renderer.config.ts', import.meta.url),
  );
  await build({ configFile, logLevel: 'warn' });
  process.env.VITE_BRIDGE = 'fake';
  try {
    await build({ configFile, logLevel: 'warn' });
  } finally {
    delete process.env.VITE_BRIDGE;
  }
}
