/** GPUs with published hashcat benchmark rates (dosoos/hashcat_speeds (hashcat -b outputs), dosoos/hashcat_speeds). */
export type ReferenceGpu = 'rtx-4090' | 'rtx-5090' | 'h100-pcie';

/** A hashcat benchmark rate: guesses/s at the benchmark's iteration count. PBKDF2 scales linearly (dosoos/hashcat_speeds (hashcat -b outputs)). */
export interface GpuRate {
  readonly guessesPerSecond: number;
  readonly iterations: number;
  /** hashcat mode and version, for the evidence. */
  readonly mode: string;
}

/** hashcat's VeraCrypt benchmarks use 500,000 iterations (= PIM 485, dosoos/hashcat_speeds (hashcat -b outputs)). */
const VERACRYPT_BENCH_ITERATIONS = 500_000;

/** VeraCrypt PBKDF2 + XTS-512 rates per hash and GPU (dosoos/hashcat_speeds (hashcat -b outputs) table). */
export const VERACRYPT_GPU_RATES: Readonly<
  Record<'sha512' | 'whirlpool' | 'sha256' | 'streebog', Partial<Record<ReferenceGpu, GpuRate>>>
> = {
  sha512: {
    'rtx-4090': {
      guessesPerSecond: 6432,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29421 (6.2.6)',
    },
    'rtx-5090': {
      guessesPerSecond: 8402,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29421 (6.2.6-851)',
    },
    'h100-pcie': { guessesPerSecond: 3560, iterations: VERACRYPT_BENCH_ITERATIONS, mode: 'hashcat 29421' },
  },
  whirlpool: {
    'rtx-4090': {
      guessesPerSecond: 776,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29431 (6.2.6)',
    },
  },
  sha256: {
    'rtx-4090': {
      guessesPerSecond: 9066,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29451 (6.2.6)',
    },
    'rtx-5090': {
      guessesPerSecond: 11_085,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29451 (6.2.6-851)',
    },
    'h100-pcie': { guessesPerSecond: 4819, iterations: VERACRYPT_BENCH_ITERATIONS, mode: 'hashcat 29451' },
  },
  streebog: {
    'rtx-4090': {
      guessesPerSecond: 306,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29471 (6.2.6)',
    },
    'rtx-5090': {
      guessesPerSecond: 321,
      iterations: VERACRYPT_BENCH_ITERATIONS,
      mode: 'hashcat 29471 (6.2.6-851)',
    },
    'h100-pcie': { guessesPerSecond: 118, iterations: VERACRYPT_BENCH_ITERATIONS, mode: 'hashcat 29471' },
  },
};
