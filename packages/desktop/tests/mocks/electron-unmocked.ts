// The unit project resolves `electron` here (vitest.config.ts). In plain Node the real package would try to
// download its binary on first import (architecture 2.12), so an un-mocked import must fail loudly instead.
throw new Error(
  'electron was imported without a mock. Add `vi.mock("electron", () => import("<path>/mocks/electron-fake.js"))` to the test: ' +
    'the Electron binary cannot run in unit tests.',
);
