import { describe, expect, it } from 'vitest';
import type { PlanCommand } from '../../src/domain/plan-command.js';
import { planCommandsOf, readCommand } from '../../src/targets/registry.js';
import { veracryptWindowsCommands } from '../../src/targets/veracrypt/commands.js';
import { volumeInput } from '../support/volume-input.js';

// Issue 26 item 2: each target reads its own commands back from their words (TargetCommands.read), so the plan's
// checks (plan/consistency.ts, plan/invariants.ts) name no target's tool or command id. Every reading here is of
// a command the target's own builder made (or a line of its tool the checks must refuse).

const input = volumeInput({
  luks2Pbkdf: { memoryKiB: 1_048_576, parallel: 4, iterations: 5, iterTimeMs: null },
  workqueueBypass: true,
  veracrypt: { encryption: 'AES', kdf: { hash: 'sha512', pim: 485 } },
});

const line = (id: string, argv: string[], extra: Partial<PlanCommand> = {}): PlanCommand => ({
  id,
  purpose: 'test',
  argv,
  risk: 'destroys-data',
  stdin: null,
  ...extra,
});

function defined<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) {
    throw new Error('expected a value');
  }
  return value;
}

const byId = (commands: readonly PlanCommand[], id: string): PlanCommand => {
  const found = commands.find((command) => command.id === id);
  if (found === undefined) {
    throw new Error(`no command ${id}`);
  }
  return found;
};

describe('LUKS2 reads its own commands (luks2/commands.ts readLuks2Command)', () => {
  const volume = planCommandsOf('luks2').volume(input);

  it('reads the settings luksFormat applies and the device it formats', () => {
    expect(readCommand(byId(volume, 'luks-format'))).toEqual({
      step: { kind: 'format', step: 'luksFormat', device: '/dev/sdb1', writesDisk: true },
      settings: {
        kind: 'volume',
        cipher: { option: '--cipher', value: 'aes-xts-plain64' },
        keySizeBits: { option: '--key-size', value: '512' },
        sectorSizeBytes: { option: '--sector-size', value: '4096' },
        kdf: { option: '--pbkdf', value: 'argon2id' },
        kdfMemoryKiB: { option: '--pbkdf-memory', value: '1048576' },
        kdfParallel: { option: '--pbkdf-parallel', value: '4' },
        kdfIterations: { option: '--pbkdf-force-iterations', value: '5' },
      },
    });
  });

  it('reads the open: the device, the mapping and each activation flag it gives', () => {
    expect(readCommand(byId(volume, 'luks-open'))).toEqual({
      step: {
        kind: 'open',
        step: 'cryptsetup open',
        device: '/dev/sdb1',
        mapping: 'cryptdata',
        switches: [
          { option: '--allow-discards', setting: 'discards', given: true },
          { option: '--perf-no_read_workqueue', setting: 'workqueue-bypass', given: true },
          { option: '--perf-no_write_workqueue', setting: 'workqueue-bypass', given: true },
        ],
        writesDisk: true,
      },
      settings: { kind: 'activation', discards: true, workqueueBypass: true },
    });
    const closed = planCommandsOf('luks2').volume({ ...input, allowDiscards: false, workqueueBypass: false });
    expect(readCommand(byId(closed, 'luks-open')).settings).toEqual({
      kind: 'activation',
      discards: false,
      workqueueBypass: false,
    });
  });

  it('reads the crypttab line from its stdin text, with no step of its own (tee is a shared step)', () => {
    const crypttab = byId(volume, 'crypttab-entry');
    expect(readCommand(crypttab)).toEqual({
      step: null,
      settings: { kind: 'activation', discards: true, workqueueBypass: true },
    });
    expect(readCommand({ ...crypttab, stdinText: 'cryptdata UUID=x none luks\n' }).settings).toEqual({
      kind: 'activation',
      discards: false,
      workqueueBypass: false,
    });
  });

  it('reads a refresh: its mapping and flags, but not its workqueue bypass (it applies only changes)', () => {
    const refresh = defined(
      planCommandsOf('luks2').refresh?.(input, { mappingName: 'data', storesActivationFlags: true })[0],
    );
    const reading = readCommand(refresh);
    expect(reading.step).toMatchObject({ kind: 'refresh', mapping: 'data', writesDisk: false });
    expect(reading.settings).toEqual({ kind: 'activation', discards: true, workqueueBypass: null });
  });

  it('reads reencrypt --encrypt as an in-place step applying the volume settings', () => {
    const reading = readCommand(defined(planCommandsOf('luks2').inPlace?.(input, '32M')?.encrypt));
    expect(reading.step).toEqual({ kind: 'in-place', step: 'cryptsetup reencrypt', writesDisk: false });
    expect(reading.settings).toMatchObject({ kind: 'volume', cipher: { value: 'aes-xts-plain64' } });
  });

  it('refuses to judge another cryptsetup action, and does not read a line of another tool', () => {
    expect(readCommand(line('close', ['cryptsetup', 'close', 'cryptdata']))).toEqual({
      step: { kind: 'unjudged', step: 'cryptsetup close', writesDisk: false },
      settings: null,
    });
    expect(readCommand(byId(volume, 'mkfs'))).toEqual({ step: null, settings: null });
    expect(readCommand(line('layout', ['sgdisk', '--clear', '/dev/sdb']))).toEqual({
      step: null,
      settings: null,
    });
  });

  it('reads LUKS2 on OPAL the same way (luksFormat --hw-opal)', () => {
    const opal = planCommandsOf('luks2-opal').volume(input);
    expect(byId(opal, 'luks-format').argv).toContain('--hw-opal');
    expect(planCommandsOf('luks2-opal').read?.(byId(opal, 'luks-format'))).toEqual(
      readCommand(byId(volume, 'luks-format')),
    );
  });
});

describe('VeraCrypt reads its own commands (veracrypt/commands.ts)', () => {
  it('reads veracrypt -c: the device it formats, its PIM and hash', () => {
    expect(readCommand(defined(planCommandsOf('veracrypt').volume(input)[0]))).toEqual({
      step: { kind: 'format', step: 'veracrypt -c', device: '/dev/sdb1', writesDisk: true },
      settings: { kind: 'pim-and-hash', pim: '485', hash: 'sha512' },
    });
  });

  it("reads Windows Format.exe's /pim and /hash, with no Linux step", () => {
    const settings = { encryption: 'AES', kdf: { hash: 'sha256', pim: 98 } };
    const create = defined(veracryptWindowsCommands('D:', settings, 'x', 1 << 30)[0]);
    expect(readCommand(create)).toEqual({
      step: null,
      settings: { kind: 'pim-and-hash', pim: '98', hash: 'sha256' },
    });
  });

  it('refuses to judge another veracrypt line, which still writes the disk', () => {
    expect(readCommand(line('dismount', ['veracrypt', '-d']))).toEqual({
      step: { kind: 'unjudged', step: 'veracrypt -d', writesDisk: true },
      settings: null,
    });
  });
});
