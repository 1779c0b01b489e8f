import { planSchema } from '../plan/plan.js';
import { defineDocument } from './document.js';

/** `encplan plan --json`: the {@link planSchema} result (docs/json-contract.md). */
export const planDocument = defineDocument({
  name: 'encplan.plan',
  version: [1, 1],
  title: 'encplan plan envelope',
  result: planSchema,
});
