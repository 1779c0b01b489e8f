import { planSchema } from '../plan/plan.js';
import { commandDocument } from './document.js';

/** `encplan plan --json`: the {@link planSchema} result (docs/json-contract.md). */
export const planDocument = commandDocument('plan', [1, 5], 'plan', planSchema);
