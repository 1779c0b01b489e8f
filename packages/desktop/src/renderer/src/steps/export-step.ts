import { renderCommandsScript, renderHtmlReport } from '@encplan/core';
import { renderChart } from '../chart-renderer.js';
import { h } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { stepFrame } from './step-frame.js';

/** Offers a file to save through the browser's (or Electron's) download, without any Node access. */
function download(fileName: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/** Step 5: the JSON report, a self-contained HTML report, the commands as a script, copy to clipboard. */
export function renderExportStep(state: WizardState, actions: WizardActions): HTMLElement {
  const view = state.view;
  if (view === null) {
    return stepFrame('Export', 'Nothing to export yet.', [], {
      back: () => {
        actions.goTo(4);
      },
    });
  }
  const base = `encplan-${(view.device?.path ?? 'assessment').replace(/^\/dev\//, '').replace(/[^\w.-]/g, '_')}`;
  const script = renderCommandsScript(view);
  const buttons = h(
    'div',
    { class: 'export-buttons' },
    h(
      'button',
      {
        type: 'button',
        id: 'export-json',
        onclick: () => {
          download(`${base}.json`, 'application/json', `${JSON.stringify(state.envelope, null, 2)}\n`);
          actions.notify('JSON report saved.');
        },
      },
      'Save JSON report',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'export-html',
        onclick: () => {
          download(`${base}.html`, 'text/html', renderHtmlReport(view, renderChart));
          actions.notify('HTML report saved.');
        },
      },
      'Save HTML report',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'export-script',
        onclick: () => {
          download(`${base}.sh`, 'text/x-shellscript', script);
          actions.notify('Script saved.');
        },
      },
      'Save commands as a script',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'copy-commands',
        onclick: () => {
          navigator.clipboard.writeText(script).then(
            () => {
              actions.notify('Commands copied to the clipboard.');
            },
            () => {
              actions.notify('Copying was refused by the browser; select the text below and copy it.');
            },
          );
        },
      },
      'Copy commands',
    ),
  );
  return stepFrame(
    'Export',
    'Keep the report, share it, or take the commands with you. Commands that destroy data, and the commands that depend on them, are commented out in the script and marked DESTROYS DATA; read it before running anything.',
    [
      buttons,
      h('label', { for: 'script-preview' }, 'Commands'),
      h('textarea', { id: 'script-preview', readonly: true, rows: '12', spellcheck: 'false' }, script),
    ],
    {
      back: () => {
        actions.goTo(4);
      },
    },
  );
}
