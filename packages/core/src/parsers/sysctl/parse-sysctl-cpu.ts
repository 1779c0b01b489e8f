import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

const TOOL = 'sysctl';

/** CPU facts from `sysctl machdep.cpu hw.optional` on macOS. */
export interface SysctlCpu {
  readonly brand: string | null;
  /** `machdep.cpu.features` + `leaf7_features` + `extfeatures` words (Intel), upper case. */
  readonly features: readonly string[];
  readonly appleSilicon: boolean;
  /**
   * AES instructions usable by the OS: the AES word in machdep.cpu.features on Intel (a guest VM can
   * hide it even when the host CPU has it — fixture sysctl macos10.9 VM), `hw.optional.arm.FEAT_AES: 1`
   * on Apple silicon. Every Apple silicon CPU implements the ARMv8 Cryptographic Extension (Apple,
   * "Apple Platform Security", 2024: AES engine and ARMv8 crypto instructions on all Apple SoCs), so
   * "Apple" in the brand without the FEAT_AES line still reads as true. Null when nothing says.
   */
  readonly aes: boolean | null;
  /** The CPU runs as a guest (VMM flag). */
  readonly virtualMachine: boolean;
}

/** Parses `name: value` lines of sysctl. Lines of other shapes fail closed. */
export function parseSysctlCpu(text: string): SysctlCpu {
  const values = new Map<string, string>();
  for (const line of splitOutputLines(TOOL, text)) {
    if (line.trim() === '') {
      continue;
    }
    const match = /^([A-Za-z0-9_.]+)(?::\s?| = )(.*)$/.exec(line);
    if (match === null) {
      throw unrecognizedOutput(TOOL, 'a line is not "name: value"', line);
    }
    values.set(match[1] ?? '', (match[2] ?? '').trim());
  }
  const brand = values.get('machdep.cpu.brand_string') ?? null;
  const featureKeys = ['machdep.cpu.features', 'machdep.cpu.leaf7_features', 'machdep.cpu.extfeatures'];
  if (
    brand === null &&
    !featureKeys.some((key) => values.has(key)) &&
    values.get('hw.optional.arm64') === undefined
  ) {
    throw unrecognizedOutput(TOOL, 'no machdep.cpu.brand_string, machdep.cpu.features or hw.optional.arm64');
  }
  const features = featureKeys
    .flatMap((key) => (values.get(key) ?? '').split(/\s+/).filter((word) => word !== ''))
    .map((word) => word.toUpperCase());
  const appleSilicon = values.get('hw.optional.arm64') === '1' || (brand?.startsWith('Apple ') ?? false);
  const featAes = values.get('hw.optional.arm.FEAT_AES');
  const aes = appleSilicon
    ? true
    : featAes !== undefined
      ? featAes === '1'
      : values.has('machdep.cpu.features')
        ? features.includes('AES')
        : null;
  return { brand, features, appleSilicon, aes, virtualMachine: features.includes('VMM') };
}
