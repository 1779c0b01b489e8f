import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createBridgeHandlers } from '../../packages/desktop/src/backend/bridge-handlers.js';
import { createWizardBackend } from '../../packages/desktop/src/backend/wizard-services.js';
import { startUiServer, type UiServer } from '../../packages/desktop/src/server/ui-server.js';
import { REPO_ROOT } from '../support/fake-tools.js';

/** Debian's Chromium (apt-get install chromium; scripts/setup.sh installs it). */
const CHROMIUM_PATH = process.env.ENCPLAN_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser suites cannot run here, or null when they can. */
export const chromiumMissing: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `${CHROMIUM_PATH} not found (apt-get install chromium)`;

/** The flags this machine's Chromium needs headless as root (architecture 2.12). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Screenshots are kept under test-artifacts/desktop-web/ (gitignored) to look at after a run. */
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts/desktop-web');

/** Saves a full-page screenshot of the current step. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Saves a full-page screenshot of the current step and expects axe to find no violations on it. */
export async function screenshotAxeClean(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect((await axeViolations(page)).violations).toEqual([]);
}

interface AxeResult {
  readonly violations: readonly {
    readonly id: string;
    readonly impact: string | null;
    readonly help: string;
    readonly nodes: readonly { readonly target: readonly string[] }[];
  }[];
  readonly passes: readonly { readonly id: string }[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA plus best practices) on the page and returns its violations as
 * readable lines. axe is evaluated through the DevTools protocol, so the page's strict CSP stays on.
 */
export async function axeViolations(page: Page): Promise<{ violations: string[]; passedRules: string[] }> {
  const source = await readFile(path.join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(() =>
    (
      window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<AxeResult> } }
    ).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return {
    violations: result.violations.map(
      (violation) =>
        `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    passedRules: result.passes.map((pass) => pass.id),
  };
}

/** The sizes the screenshots are taken at: a laptop and the smallest window the wizard supports. */
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;
export const SCHEMES = ['light', 'dark'] as const;

/**
 * Serves the fake-bridge build of the wizard on 127.0.0.1 as `encplan ui` does, with a real saved assessment
 * behind it (the fake build talks to no API; the server only serves its files).
 */
async function startFakeWizardServer(): Promise<UiServer> {
  const backend = await createWizardBackend({
    assessmentFiles: [
      path.join(REPO_ROOT, 'fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'),
    ],
    searchPath: '',
    userId: 1000,
  });
  return startUiServer({
    rendererDir: path.join(REPO_ROOT, 'packages/desktop/out/renderer-fake'),
    handlers: createBridgeHandlers(backend.services, backend.jobs),
  });
}

/** A suite's Chromium and wizard server: started before its first test, closed after its last (vitest hooks). */
export interface WizardInChromium {
  readonly browser: Browser;
  readonly server: UiServer;
  /**
   * A new browser context with `options` and the wizard loaded in a page of it; `beforeLoad` sees the page
   * before it loads (to listen for its errors).
   */
  open(
    options?: BrowserContextOptions,
    beforeLoad?: (page: Page) => void,
  ): Promise<{ context: BrowserContext; page: Page }>;
}

/** Call in a describe block: `startServer` (default: the fake-bridge wizard) and Chromium for its tests. */
export function useWizardInChromium(
  startServer: () => Promise<UiServer> = startFakeWizardServer,
): WizardInChromium {
  let browser: Browser | undefined;
  let server: UiServer | undefined;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  function started<T>(value: T | undefined, what: string): T {
    if (value === undefined) {
      throw new Error(`${what} is started in beforeAll: use it inside a test`);
    }
    return value;
  }
  return {
    get browser() {
      return started(browser, 'Chromium');
    },
    get server() {
      return started(server, 'the wizard server');
    },
    async open(options = {}, beforeLoad = () => undefined) {
      const context = await started(browser, 'Chromium').newContext(options);
      const page = await context.newPage();
      beforeLoad(page);
      await page.goto(started(server, 'the wizard server').url);
      return { context, page };
    },
  };
}

/**
 * What no text of the wizard may contain (issue 27): a CLI option, an error or warning code, a source path, or
 * one of `ids` (the plan's rule and strategy ids, kebab-case). Scans the whole DOM's text, folded parts too.
 */
export async function expectNoCodes(page: Page, ids: readonly string[]): Promise<void> {
  const text = await page.evaluate(() => {
    const parts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      parts.push(node.nodeValue ?? '');
    }
    // Labels that are not text nodes: button titles, input placeholders, aria labels, cell titles.
    for (const element of Array.from(document.querySelectorAll('[title], [placeholder], [aria-label]'))) {
      parts.push(
        ['title', 'placeholder', 'aria-label'].map((name) => element.getAttribute(name) ?? '').join(' '),
      );
    }
    return parts.join('\n');
  });
  const found = [
    ...(text.match(/(?:^|[\s(“"'])--[a-z][a-z0-9-]*/gm) ?? []),
    // Kernel names (a config option to enable, the AF_ALG socket, O_DIRECT) are terms people look up, not codes.
    ...(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []).filter(
      (name) => !/^(CONFIG_[A-Z0-9_]+|AF_ALG|O_DIRECT)$/.test(name),
    ),
    ...(text.match(/\b[\w-]+(?:\/[\w.-]+)*\.(?:go|ts|js|c|cpp|py|rs)\b(?::\d+)?/g) ?? []),
    ...ids.filter((id) =>
      new RegExp(`(?<![\\w/-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-])`).test(text),
    ),
  ];
  // Each with the text around it, so a failure says where it is.
  const around = (match: string): string => {
    const at = text.indexOf(match);
    return `${match.trim()} in “${text.slice(Math.max(0, at - 60), at + match.length + 40)}”`;
  };
  expect(found.map(around)).toEqual([]);
}

/** The kebab-case ids of a plan in an assessment envelope: rule ids, strategy kind, precondition ids. */
export function planIdsOf(envelope: unknown): string[] {
  const ids = new Set<string>();
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) {
      value.forEach((entry) => {
        walk(entry, key);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [name, entry] of Object.entries(value)) {
        walk(entry, name);
      }
    } else if (
      typeof value === 'string' &&
      ['ruleId', 'kind', 'id', 'rule'].includes(key) &&
      /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(value)
    ) {
      ids.add(value);
    }
  };
  walk((envelope as { result?: { plan?: unknown } }).result?.plan, '');
  return [...ids];
}
