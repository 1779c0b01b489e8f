/**
 * Which block devices can hold data to encrypt: one rule for `assess DEVICE` (refused), `assess --all` and
 * `collect --all` (left out) and the wizard's drive list (left out). Pure.
 */

/** Why a device cannot hold data; the stable code is `details.reason` of the DEVICE_UNSUPPORTED refusal. */
export interface NotForData {
  readonly reason: 'memory-backed' | 'empty' | 'read-only';
  readonly message: string;
}

/** What the rule looks at: lsblk's NAME, TYPE, SIZE and RO, or the same read from sysfs. */
export interface BlockDeviceShape {
  readonly kernelName: string;
  readonly type: string;
  /** Null when unknown: then the size decides nothing. */
  readonly sizeBytes: number | null;
  readonly readOnly: boolean | null;
}

/**
 * zram and ram disks are memory (drivers/block/zram, brd: their contents vanish at power-off, so there is
 * nothing to protect at rest); a 0-byte device (an unbound loop, an uninitialised zram, a card reader without
 * a card) has no room for data; a read-only device (snap images on loop, a write-protected card, eMMC boot
 * areas with force_ro) cannot be written by any encryption command. Null: the device can hold data.
 */
export function whyCannotHoldData(device: BlockDeviceShape): NotForData | null {
  if (/^(zram|ram)\d+$/.test(device.kernelName)) {
    return {
      reason: 'memory-backed',
      message: `/dev/${device.kernelName} is a RAM-backed device (zram or ram disk): its contents vanish at power-off, so there is nothing at rest to encrypt.`,
    };
  }
  if (device.sizeBytes === 0) {
    return {
      reason: 'empty',
      message: `/dev/${device.kernelName} has a size of 0 bytes (an unbound loop device, an uninitialised zram or a reader without a medium): it holds no data.`,
    };
  }
  if (device.readOnly === true) {
    return {
      reason: 'read-only',
      message: `/dev/${device.kernelName} is read-only: no encryption command could write it.`,
    };
  }
  return null;
}
