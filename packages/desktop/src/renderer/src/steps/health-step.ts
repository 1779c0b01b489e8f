import type { SectionView } from '@encplan/core';
import { h } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { badge, factTable, stepFrame } from './step-frame.js';
import { errorState, missingToolsNotice } from './error-state.js';

function sectionCard(section: SectionView): HTMLElement {
  return h(
    'article',
    { class: `card tone-border-${section.tone}`, 'aria-labelledby': `section-${section.id}` },
    h('h2', { id: `section-${section.id}` }, section.title, ' ', badge(section.tone, section.verdict)),
    h('p', { class: 'verdict' }, section.summary),
    section.missingReason === null
      ? null
      : h('p', { class: 'source' }, `Not measured: ${section.missingReason}`),
    section.findings.length === 0
      ? null
      : h(
          'ul',
          { class: 'findings' },
          section.findings.map((finding) =>
            h(
              'li',
              {},
              badge(finding.tone),
              ' ',
              finding.message,
              finding.source === null ? null : h('span', { class: 'source' }, ` (source: ${finding.source})`),
            ),
          ),
        ),
    section.facts.length === 0
      ? null
      : h(
          'details',
          {},
          h('summary', {}, `Details and sources (${String(section.facts.length)})`),
          factTable(`${section.title}: facts`, section.facts),
        ),
  );
}

/** Step 2: health, TRIM and space as plain-language verdicts with the facts and their sources on demand. */
export function renderHealthStep(state: WizardState, actions: WizardActions): HTMLElement {
  const view = state.view;
  const running = state.job?.state === 'running';
  const body =
    view === null
      ? [
          h(
            'p',
            { role: 'status' },
            running ? 'Reading the drive’s health, TRIM and space…' : 'No assessment yet.',
          ),
        ]
      : view.error !== null
        ? [
            errorState(view.error, state.selectedDevice ?? state.lastDevice, {
              retry: () => {
                actions.assessFacts();
              },
              refreshDevices: () => {
                actions.refreshDevices();
              },
            }),
          ]
        : [
            missingToolsNotice(view.warnings),
            view.device === null
              ? null
              : h(
                  'p',
                  { class: 'device-line' },
                  h('strong', {}, view.device.model),
                  ` · ${view.device.path} · ${view.device.size}`,
                  view.device.isSystemDisk ? ' · ' : null,
                  view.device.isSystemDisk ? badge('attention', 'System disk') : null,
                ),
            view.stack.length === 0
              ? null
              : h(
                  'details',
                  { class: 'stack' },
                  h('summary', {}, 'Stack (from the disk up)'),
                  h(
                    'ul',
                    {},
                    view.stack.map((line) =>
                      h('li', { class: `depth-${String(Math.min(line.depth, 4))}` }, line.text),
                    ),
                  ),
                ),
            ...view.sections.map(sectionCard),
          ];
  return stepFrame(
    'Health, TRIM and space',
    'What the drive and the system say about it, in plain words. Open the details for the raw facts and where each came from.',
    body,
    {
      back: () => {
        actions.goTo(1);
      },
      next: () => {
        actions.goTo(3);
      },
      nextDisabled: view === null || view.error !== null,
    },
  );
}
