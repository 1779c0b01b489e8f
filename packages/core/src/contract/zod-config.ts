import { z } from 'zod';

/**
 * Tells zod to parse without compiling: for a process that validates each schema once or twice, as one CLI
 * run does. Otherwise zod compiles a parser per object schema (`new Function`) on its first parse, which costs
 * more than it saves then: the first parse of an assessment's plan facts took 63–91 ms of CPU compiled and
 * 25–41 ms without (Node 22, 2 cores, 3 runs each; docs/performance.md). The parsed values are the same.
 */
export function parseWithoutCompiling(): void {
  z.config({ jitless: true });
}
