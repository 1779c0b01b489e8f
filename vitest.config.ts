import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit and e2e runs: TMPDIR a folder of the run's own, which must hold no `encplan-test-*` folder at the end
// (temp-root.global.ts); what a test file's helpers made is removed when it ends (remove-at-file-end.setup.ts).
const tempFolders = {
  globalSetup: ['tests/support/temp-root.global.ts'],
  setupFiles: ['tests/support/remove-at-file-end.setup.ts'],
};

const alias = {
  '@encplan/core/node': fileURLToPath(new URL('./packages/core/src/node/index.ts', import.meta.url)),
  '@encplan/core': fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    allowOnly: false,
    projects: [
      {
        // electron resolves to a module that throws: a test must vi.mock it (architecture 2.12).
        resolve: {
          alias: {
            ...alias,
            electron: fileURLToPath(
              new URL('./packages/desktop/tests/mocks/electron-unmocked.ts', import.meta.url),
            ),
          },
        },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/tests/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
          // fast-check property tests are CPU-bound; on a shared 2-core CI machine they exceed vitest's
          // default 5 s. The limit only catches hangs; no test checks speed.
          testTimeout: 30_000,
          ...tempFolders,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/cli-e2e/**/*.test.ts'],
          testTimeout: 60_000,
          ...tempFolders,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'desktop-web',
          environment: 'node',
          include: ['tests/desktop-web/**/*.test.ts'],
          globalSetup: ['tests/desktop-web/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // The kernel lane (tests/kernel): one QEMU boot runs every guest test; its own deadline kills QEMU.
        resolve: { alias },
        test: {
          name: 'kernel',
          environment: 'node',
          include: ['tests/kernel/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 20 * 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
