import { afterAll } from 'vitest';
import { removeFolders } from './temp-dirs.js';

// A setup file of the unit and e2e projects (vitest.config.ts): when a test file ends, the folders its helpers
// made (fake tools, tempDir) and no test removed are removed.
afterAll(removeFolders);
