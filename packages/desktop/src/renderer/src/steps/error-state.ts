import { missingTool, type Warning } from '@encplan/core';
import { h, type Child } from '../element-builder.js';
import { errorInWords, inWords } from './words.js';

/** An error as the bridge or the report view carries it. */
interface ShownError {
  readonly code: string;
  readonly message: string;
  readonly hint: string | null;
  readonly details: Readonly<Record<string, unknown>> | null;
}

type MissingToolView = NonNullable<ReturnType<typeof missingTool>>;

/** What an error state offers: run the failed step again, and (for a vanished drive) re-read the drive list. */
export interface ErrorStateActions {
  readonly retry: () => void;
  readonly refreshDevices: () => void;
}

/** How to install a tool: apt-get for a Debian package name, else where it comes from. */
function installLine(tool: MissingToolView): Child[] {
  return /^[a-z0-9][a-z0-9.+-]*$/.test(tool.debianPackage)
    ? ['Install it with ', h('code', {}, `sudo apt-get install ${tool.debianPackage}`), ', then try again.']
    : [`Install ${tool.debianPackage}, then try again.`];
}

function button(id: string, className: string, label: string, onclick: () => void): HTMLElement {
  return h('button', { type: 'button', id, class: className, onclick }, label);
}

/** The technical text of an error, folded away: for a bug report, not for deciding what to do. */
function technical(error: ShownError): HTMLElement {
  return h(
    'details',
    { class: 'technical' },
    h('summary', {}, 'Technical details'),
    h('p', {}, inWords(error.message)),
  );
}

/**
 * The error state the wizard shows for a failed bridge call or assessment: a missing tool says which, what
 * it costs and the package to install; a drive that vanished says so and offers to refresh the drive list;
 * anything else shows the message and hint. Every state has Try again.
 */
export function errorState(
  error: ShownError,
  device: string | null,
  actions: ErrorStateActions,
): HTMLElement {
  const retry = button('retry', 'secondary', 'Try again', actions.retry);
  const tool = error.code === 'TOOL_NOT_FOUND' ? missingTool(error.details?.tool) : null;
  if (tool !== null) {
    return h(
      'div',
      { class: 'alert tone-attention error-state', role: 'alert' },
      h('h2', {}, `${tool.tool} is not installed`),
      h('p', {}, `encplan uses ${tool.tool} for ${tool.purpose}; without it, that part cannot be checked.`),
      h('p', {}, ...installLine(tool)),
      h('div', { class: 'controls' }, retry),
      technical(error),
    );
  }
  if (error.code === 'DEVICE_NOT_FOUND') {
    return h(
      'div',
      { class: 'alert tone-bad error-state', role: 'alert' },
      h('h2', {}, device === null ? 'The drive is no longer there' : `${device} is no longer there`),
      h(
        'p',
        {},
        'It was unplugged, detached or renamed while encplan was reading it. Reconnect it and try again, or refresh the drive list and pick it again.',
      ),
      h(
        'div',
        { class: 'controls' },
        button('refresh-after-error', 'primary', 'Refresh the drive list', actions.refreshDevices),
        retry,
      ),
      technical(error),
    );
  }
  return h(
    'div',
    { class: 'alert tone-bad error-state', role: 'alert' },
    h('h2', {}, errorInWords(error.code, error.message)),
    h('p', {}, inWords(error.message)),
    error.hint === null ? null : h('p', {}, inWords(error.hint)),
    h('div', { class: 'controls' }, retry),
  );
}

/**
 * The tools an assessment missed (its TOOL_MISSING warnings), each with what it costs and how to install it;
 * null when none is missing.
 */
export function missingToolsNotice(warnings: readonly Warning[]): HTMLElement | null {
  const tools = [
    ...new Map(
      warnings
        .filter((warning) => warning.code === 'TOOL_MISSING')
        .map((warning) => missingTool(warning.source))
        .filter((tool): tool is MissingToolView => tool !== null)
        .map((tool) => [tool.tool, tool] as const),
    ).values(),
  ];
  if (tools.length === 0) {
    return null;
  }
  return h(
    'div',
    { class: 'alert tone-attention missing-tools', role: 'note', 'aria-labelledby': 'missing-tools-title' },
    h(
      'h2',
      { id: 'missing-tools-title' },
      tools.length === 1 ? 'A tool is missing' : 'Some tools are missing',
    ),
    h(
      'ul',
      {},
      tools.map((tool) =>
        h('li', {}, h('strong', {}, tool.tool), ` (for ${tool.purpose}). `, ...installLine(tool)),
      ),
    ),
  );
}
