import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const MACHINE_BUNDLE = 'fixtures/bundles/machine-all-loops-and-virtio-node-missing-debian12';

afterEach(removeTempDirs);

describe('encplan assess --all --html FILE', () => {
  it('writes one page: the summary of every disk, then each disk’s report', async () => {
    const file = path.join(await tempDir('encplan-all-html-'), 'machine.html');
    const run = runCli(['assess', '--all', '--bundle', MACHINE_BUNDLE, '--html', file]);
    // One disk of the bundle could not be assessed: exit 4, as without --html.
    expect(run.status).toBe(4);
    expect(run.stdout).toContain('encplan assessment of every disk');
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<table id="summary">');
    for (const disk of ['/dev/loop0', '/dev/loop1', '/dev/loop2', '/dev/vda']) {
      expect(html).toContain(`">${disk}</a></th>`);
    }
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('still refuses --benchmark and --commands with --all, saying why', () => {
    for (const flag of ['--benchmark', '--commands']) {
      const run = runCli(['assess', '--all', flag, '--bundle', MACHINE_BUNDLE]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('no --benchmark or --commands with it');
    }
  });
});
