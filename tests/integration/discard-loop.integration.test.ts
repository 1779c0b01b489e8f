import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyseDiscardPassthrough,
  assessDriveSections,
  parseMountinfo,
  probeDiscardStack,
  probeHealth,
  readSysfsStack,
} from '@encplan/core';
import { createNodeHost, createRunner } from '@encplan/core/node';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';
import { noteSkip } from '../support/skip-reasons.js';

const skipReason = loopDeviceSkipReason();
noteSkip(import.meta.url, skipReason);

describe.skipIf(skipReason !== null)(
  'discard passthrough over real sysfs: loop → partition → ext4 (root)',
  () => {
    let stack: LoopStack;
    const host = createNodeHost(createRunner({ searchPath: process.env.PATH ?? '' }));

    beforeAll(() => {
      stack = createLoopStack({ sizeBytes: 64 * 1024 * 1024, partitionPercent: 78, mount: true });
    });
    afterAll(() => {
      stack?.remove();
    });

    it('reads the stack from sysfs and finds that discards pass the loop layer and its partition', async () => {
      const loop = path.basename(stack.device);
      const mounts = parseMountinfo((await host.readText('/proc/self/mountinfo')) ?? '');
      const root = await readSysfsStack(host, loop, mounts);
      expect(root).toMatchObject({ type: 'loop', path: stack.device, sizeBytes: 64 * 1024 * 1024 });
      expect(root.backingFile).toBe(path.join(stack.directory, 'disk.img'));
      expect(root.children.map((child) => [child.path, child.type])).toEqual([[stack.partition, 'part']]);
      expect(root.children[0]?.mountpoints).toEqual([stack.mountpoint]);

      const { facts, warnings } = await probeDiscardStack(host, root);
      const result = analyseDiscardPassthrough(root, { ...facts, readsZeroesAfterTrim: null });
      const partitionPath = result.paths.find((p) => p.topPath === stack.partition);
      expect(partitionPath?.layers.map((layer) => [layer.kind, layer.passesDiscards])).toEqual([
        ['partition', true],
        ['loop', true],
      ]);
      expect(partitionPath).toMatchObject({ passesToDisk: true, firstBlockingLayer: null, leaks: [] });
      expect(partitionPath?.layers[1]?.discardMaxBytes).toBeGreaterThan(0);
      // A plain mount has no discard option; fstrim.timer decides (or is unknown without systemd).
      expect(partitionPath?.issuing.mountOptionDiscard).toBe(false);
      expect(warnings.every((warning) => warning.code !== 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    });

    it('says SMART is unavailable on the loop device, with a warning instead of an error, and still builds every section', async () => {
      const { facts, warnings } = await probeHealth(host, { path: stack.device, transport: 'loop' });
      expect(facts.health.verdict).toBe('unknown');
      expect(warnings.map((warning) => warning.code)).toContain('SMART_UNAVAILABLE');
      const loop = path.basename(stack.device);
      const root = await readSysfsStack(
        host,
        loop,
        parseMountinfo((await host.readText('/proc/self/mountinfo')) ?? ''),
      );
      const discard = await probeDiscardStack(host, root);
      const sections = assessDriveSections({
        disk: {
          path: stack.device,
          kernelName: loop,
          transport: 'loop',
          rotational: false,
          sizeBytes: root.sizeBytes,
        },
        stack: root,
        space: null,
        drive: facts,
        discard: discard.facts,
      });
      // No tool speaks for a loop device, but the kernel accepts discards on it (punch-hole in the image file).
      expect(sections.trim).toMatchObject({ status: 'supported', deviceSupportsTrim: null });
      expect(sections.discardPassthrough.paths.find((p) => p.topPath === stack.partition)?.passesToDisk).toBe(
        true,
      );
    });
  },
);
