import type { Tone } from '@encplan/core';
import { h, type Child } from '../element-builder.js';
import { sourceInWords } from './words.js';

/** The frame of every step: a focusable heading, an introduction, the body and the Back/Next buttons. */
export function stepFrame(
  title: string,
  introduction: string,
  body: readonly Child[],
  navigation: {
    readonly back?: () => void;
    readonly next?: () => void;
    readonly nextLabel?: string;
    readonly nextDisabled?: boolean;
  },
): HTMLElement {
  return h(
    'section',
    { class: 'step', 'aria-labelledby': 'step-title' },
    h('h1', { id: 'step-title', tabindex: '-1' }, title),
    h('p', { class: 'intro' }, introduction),
    ...body,
    h(
      'div',
      { class: 'step-navigation' },
      navigation.back === undefined
        ? null
        : h('button', { type: 'button', id: 'back', class: 'secondary', onclick: navigation.back }, 'Back'),
      navigation.next === undefined
        ? null
        : h(
            'button',
            {
              type: 'button',
              id: 'next',
              class: 'primary',
              onclick: navigation.next,
              disabled: navigation.nextDisabled === true,
            },
            navigation.nextLabel ?? 'Next',
          ),
    ),
  );
}

const TONE_WORDS: Readonly<Record<Tone, string>> = {
  good: 'Good',
  attention: 'Attention',
  bad: 'Problem',
  unknown: 'Unknown',
  info: 'Facts',
};

/** A coloured badge that also says its meaning in words (never colour alone). */
export function badge(tone: Tone, text: string = TONE_WORDS[tone]): HTMLElement {
  return h('span', { class: `badge tone-${tone}` }, text);
}

/** A table of facts with their sources. */
export function factTable(
  caption: string,
  facts: readonly { readonly label: string; readonly value: string; readonly source: string | null }[],
): HTMLElement | null {
  if (facts.length === 0) {
    return null;
  }
  return h(
    'table',
    { class: 'facts' },
    h('caption', { class: 'visually-hidden' }, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Fact'),
        h('th', { scope: 'col' }, 'Value'),
        h('th', { scope: 'col' }, 'Source'),
      ),
    ),
    h(
      'tbody',
      {},
      facts.map((fact) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, fact.label),
          h('td', {}, fact.value),
          h('td', { class: 'source' }, fact.source === null ? '—' : sourceInWords(fact.source)),
        ),
      ),
    ),
  );
}
