import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { CONTENT_SECURITY_POLICY_META } from '../../src/shared/content-security-policy.js';

const DESKTOP = fileURLToPath(new URL('../..', import.meta.url));

describe('production bundles', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'encplan-test-bundles-'));
    await build({
      configFile: path.join(DESKTOP, 'vite.preload.config.ts'),
      logLevel: 'silent',
      build: { outDir: path.join(outDir, 'preload') },
    });
    await build({
      configFile: path.join(DESKTOP, 'vite.renderer.config.ts'),
      logLevel: 'silent',
      build: { outDir: path.join(outDir, 'renderer') },
    });
  }, 60_000);
  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('builds the preload as one CommonJS file that requires only electron', async () => {
    expect(await readdir(path.join(outDir, 'preload'))).toEqual(['index.cjs']);
    const preload = await readFile(path.join(outDir, 'preload/index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1])).toEqual([
      'electron',
    ]);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload).toContain('exposeInMainWorld("encplan"');
  });

  it('builds a renderer with no require( and no node: imports, and without the fake bridge', async () => {
    const assets = path.join(outDir, 'renderer/assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = await readFile(path.join(assets, name), 'utf8');
      expect(code, name).not.toMatch(/\brequire\(/);
      expect(code, name).not.toMatch(/["']node:/);
      expect(code, name).not.toMatch(/from\s*["']electron["']/);
      // No saved fixture assessment is bundled (the fake bridge is a separate build).
      expect(code, name).not.toContain('2026-11-21T23:18:56.074Z');
    }
    const html = await readFile(path.join(outDir, 'renderer/index.html'), 'utf8');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY_META}" />`,
    );
    expect(CONTENT_SECURITY_POLICY_META).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY_META).not.toContain('unsafe');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });
});
