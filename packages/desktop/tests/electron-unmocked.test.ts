import { describe, expect, it } from 'vitest';

describe('electron in unit tests', () => {
  it('fails loudly when a test imports electron without mocking it', async () => {
    await expect(import('electron')).rejects.toThrow(/electron was imported without a mock/);
  });
});
