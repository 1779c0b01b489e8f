import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assessBundle,
  assessmentDocument,
  createAssessmentJobs,
  createSavedAssessmentServices,
  EncplanError,
  type UiServices,
} from '@encplan/core';
import { parseBundle, type Bundle } from '../../packages/core/src/capture/bundle.js';
import { toolNotFound } from '../../packages/core/src/errors.js';
import { createBridgeHandlers } from '../../packages/desktop/src/backend/bridge-handlers.js';
import { startUiServer } from '../../packages/desktop/src/server/ui-server.js';
import { REPO_ROOT } from '../support/fake-tools.js';
import { chromiumMissing, screenshotAxeClean, useWizardInChromium } from './chromium.js';
import { noteSkip } from '../support/skip-reasons.js';

const PRIVILEGE = { method: 'already-root', available: true, reason: null } as const;

/**
 * A real benchmarked bundle (fixtures/bundles/PROVENANCE.md) assessed by the real use case with smartctl and
 * fio gone, as on a machine without smartmontools and fio: the warnings are the ones assess really writes.
 */
async function assessmentWithoutSmartctlAndFio(): Promise<unknown> {
  const bundle: Bundle = parseBundle(
    JSON.parse(
      readFileSync(
        path.join(REPO_ROOT, 'fixtures/bundles/loop-ext4-mounted-benchmark-quick-debian12/bundle.json'),
        'utf8',
      ),
    ),
  );
  const envelope = await assessBundle(
    {
      ...bundle,
      captures: bundle.captures.map((capture) => {
        if (capture.kind === 'which-tool' && ['smartctl', 'fio'].includes(capture.tool)) {
          return { ...capture, result: null };
        }
        if (capture.kind === 'command' && capture.tool === 'smartctl') {
          const error = toolNotFound('smartctl');
          return {
            ...capture,
            output: null,
            error: { code: 'TOOL_NOT_FOUND' as const, message: error.message },
          };
        }
        return capture;
      }),
    },
    { now: () => new Date(bundle.collectedAt) },
  );
  return JSON.parse(JSON.stringify(envelope)) as unknown;
}

noteSkip(import.meta.url, chromiumMissing);

describe.skipIf(chromiumMissing !== null)('the wizard’s error states in Chromium', () => {
  /** What the drive list and assess answer, switched by each test: a drive detached, a tool missing. */
  let world: 'attached' | 'detached' | 'no-lsblk' = 'attached';

  const wizard = useWizardInChromium(async () => {
    const saved = createSavedAssessmentServices([await assessmentWithoutSmartctlAndFio()], {
      stepDelayMs: 20,
      privilege: PRIVILEGE,
    });
    const services: UiServices = {
      listDevices: async (signal) => (world === 'detached' ? { devices: [] } : saved.listDevices(signal)),
      assess: (request, progress) => {
        if (world === 'detached') {
          // The error inventory.ts raises when lsblk finds the device gone (issue 15: "lsblk could not list").
          return Promise.reject(
            new EncplanError(
              'DEVICE_NOT_FOUND',
              `${request.device} disappeared while lsblk was listing it (detached or removed).`,
              { hint: 'Attach or reconnect the disk and run encplan again.' },
            ),
          );
        }
        if (world === 'no-lsblk') {
          return Promise.reject(toolNotFound('lsblk'));
        }
        return saved.assess(request, progress);
      },
      capabilities: saved.capabilities,
      benchmarkFootprint: saved.benchmarkFootprint,
    };
    const jobs = createAssessmentJobs(
      services.assess,
      (error) => assessmentDocument.error(error),
      () => crypto.randomUUID(),
    );
    return startUiServer({
      rendererDir: path.join(REPO_ROOT, 'packages/desktop/out/renderer'),
      handlers: createBridgeHandlers(services, jobs),
    });
  });

  /** Opens the wizard at `viewport`, chooses /dev/loop4 and asks to check it; the step's alert, if any. */
  async function checkLoop4(viewport: { width: number; height: number }, worldOnCheck = world) {
    const { context, page } = await wizard.open({ viewport });
    await page.getByRole('radio', { name: /\/dev\/loop4/ }).check();
    world = worldOnCheck;
    await page.getByRole('button', { name: 'Check this drive' }).click();
    return { context, page, alert: page.getByRole('alert') };
  }

  it('a drive detached after it was chosen: says so, refreshes the list on request, and recovers', async () => {
    world = 'attached';
    const { context, page, alert } = await checkLoop4({ width: 800, height: 600 }, 'detached');
    await expect(alert.getByRole('heading').textContent()).resolves.toBe('/dev/loop4 is no longer there');
    await expect(alert.textContent()).resolves.toContain('unplugged, detached or renamed');
    await expect(alert.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
    await screenshotAxeClean(page, 'error-drive-detached-800x600');
    // Refresh: back to step 1, the vanished drive is gone from the list and the live region says why.
    await alert.getByRole('button', { name: 'Refresh the drive list' }).click();
    await page.getByRole('heading', { name: 'Which drive do you want to encrypt?' }).waitFor();
    await page
      .locator('p.notice', { hasText: '/dev/loop4 is no longer listed: it was unplugged or detached.' })
      .waitFor();
    await expect(page.getByRole('radio').count()).resolves.toBe(0);
    // Reattached: the refresh button brings it back.
    world = 'attached';
    await page.getByRole('button', { name: 'Refresh the drive list' }).click();
    await page.getByRole('radio', { name: /\/dev\/loop4/ }).waitFor();
    await context.close();
  });

  it('a missing tool: names it, what it costs and the Debian package, instead of a generic error', async () => {
    world = 'no-lsblk';
    const { context, page, alert } = await checkLoop4({ width: 1280, height: 800 });
    await expect(alert.getByRole('heading').textContent()).resolves.toBe('lsblk is not installed');
    await expect(alert.textContent()).resolves.toMatch(
      /the disk, its partitions and the stack above it.*sudo apt-get install util-linux/s,
    );
    await screenshotAxeClean(page, 'error-tool-missing-1280x800');
    // Installed meanwhile: Try again reads the drive.
    world = 'attached';
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: /^TRIM and discards/ }).waitFor();
    // The assessment itself missed fio (a TOOL_MISSING warning): a notice names it with its cost and package;
    // the health card says smartctl is missing and how to install it.
    const notice = page.locator('.missing-tools');
    await expect(notice.textContent()).resolves.toMatch(
      /fio \(for plain versus encrypted I\/O benchmarks\).*sudo apt-get install fio/s,
    );
    await expect(page.locator('main').textContent()).resolves.toContain(
      'smartctl is not installed (apt-get install smartmontools)',
    );
    await screenshotAxeClean(page, 'tools-missing-notice-1280x800');
    await context.close();
  });
});
