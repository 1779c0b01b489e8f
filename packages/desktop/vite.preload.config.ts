import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The preload as ONE CommonJS file importing only `electron`: a sandboxed preload cannot be ESM and may
 * require only Electron's polyfilled subset (Electron docs, "Process Sandboxing").
 */
export default defineConfig({
  build: {
    outDir: fileURLToPath(new URL('./out/preload', import.meta.url)),
    emptyOutDir: true,
    minify: false,
    target: 'node22',
    lib: {
      entry: fileURLToPath(new URL('./src/preload/index.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
