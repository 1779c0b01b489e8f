import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY_META } from './src/shared/content-security-policy.js';

/** Writes the one CSP (src/shared/content-security-policy.ts) into index.html's meta tag. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'encplan-csp',
    transformIndexHtml: (html) => html.replace('%ENCPLAN_CSP%', CONTENT_SECURITY_POLICY_META),
  };
}

/**
 * The renderer as a plain web bundle (no Node, no Electron): the same files run in the Electron window
 * and under `encplan ui`. `@encplan/core` resolves to its environment-neutral source.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  plugins: [contentSecurityPolicy()],
  resolve: {
    alias: [
      // The charts (Observable Plot) are a module of their own, out of core's index (the CLI's start-up path).
      {
        find: '@encplan/core/charts',
        replacement: fileURLToPath(new URL('../core/src/report/chart-svg.ts', import.meta.url)),
      },
      { find: '@encplan/core', replacement: fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(
      new URL(process.env.VITE_BRIDGE === 'fake' ? './out/renderer-fake' : './out/renderer', import.meta.url),
    ),
    emptyOutDir: true,
    target: 'chrome130',
    modulePreload: { polyfill: false },
    // The chart library (Observable Plot and its d3 modules) in a file of its own, beside the wizard's code.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'charts',
              test: /node_modules[\\/](@observablehq|d3-[a-z-]+|internmap|isoformat|interval-tree-1d)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
