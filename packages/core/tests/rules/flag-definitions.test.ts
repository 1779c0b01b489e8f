import { describe, expect, it } from 'vitest';
import { FLAG_DEFINITIONS, MIN_UNLOCK_MEMORY_BYTES } from '../../src/rules/flag-definitions.js';
import { resolvePlanOptions } from '../../src/rules/plan-options.js';
import { wizardAssessRequestSchema } from '../../src/use-cases/assessment-jobs.js';
import { EncplanError } from '../../src/errors.js';

describe('one definition per flag (issue 25 item 4)', () => {
  it('reads sizes only with a binary unit: a bare 2048 is refused, never 2048 bytes', () => {
    expect(() => FLAG_DEFINITIONS.unlockMemory.parse('2048')).toThrow(EncplanError);
    expect(FLAG_DEFINITIONS.unlockMemory.parse('2GiB')).toBe(2 * 1024 ** 3);
    expect(FLAG_DEFINITIONS.unlockMemory.parse('128KiB')).toBe(MIN_UNLOCK_MEMORY_BYTES);
    expect(() => FLAG_DEFINITIONS.unlockMemory.parse('127KiB')).toThrow(/not accepted/);
  });

  it('names the flag, the value (escaped) and the accepted form in the refusal', () => {
    try {
      FLAG_DEFINITIONS.mappingName.parse('x;rm -rf /\r');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EncplanError);
      const refusal = error as EncplanError;
      expect(refusal.code).toBe('INVALID_ARGUMENT');
      expect(refusal.message).toBe('--mapping-name "x;rm -rf /\\r" is not accepted.');
      expect(refusal.hint).toContain(FLAG_DEFINITIONS.mappingName.accepted);
    }
  });

  it('refuses integers written any other way than decimal digits', () => {
    for (const text of ['1e3', '0x10', '+2', '2.0', '', ' ']) {
      expect(() => FLAG_DEFINITIONS.unlockCores.parse(text), text).toThrow(EncplanError);
    }
    expect(FLAG_DEFINITIONS.unlockCores.parse('4')).toBe(4);
  });

  it('gives the plan options the same ranges: memory below the Argon2 floor is refused there too', () => {
    expect(() => resolvePlanOptions({ unlockMachine: { memoryBytes: 2048, cores: null } })).toThrow(
      /plan options are not valid/,
    );
    expect(() => resolvePlanOptions({ mappingName: 'x;rm -rf /' })).toThrow(EncplanError);
    expect(() => resolvePlanOptions({ label: 'a'.repeat(17) })).toThrow(EncplanError);
    expect(resolvePlanOptions({}).mappingName).toBe('cryptdata');
  });

  it('gives the wizard the device path plans use (by-path names with colons; no "..")', () => {
    const request = (device: string) =>
      wizardAssessRequestSchema.safeParse({ device, benchmark: 'none', backends: [] }).success;
    expect(request('/dev/disk/by-path/pci-0000:00:1f.2-ata-1')).toBe(true);
    expect(request('/dev/../etc/passwd')).toBe(false);
    expect(request('/dev/sda;reboot')).toBe(false);
    expect(request('sda')).toBe(false);
  });
});
