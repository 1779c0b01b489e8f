/**
 * An unsigned counter that may exceed 2^53 (smartctl `--json=v` prints `KEY_s` next to `KEY`; nvme-cli
 * prints big values as strings). `exact` is the exact integer; `value` is the nearest double.
 */
export interface Counter {
  readonly value: number;
  readonly exact: bigint;
}
