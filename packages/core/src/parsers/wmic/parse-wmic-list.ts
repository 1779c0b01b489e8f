import { splitOutputLines, unrecognizedOutput } from '../text-input.js';
import { bitLockerMethodOf, type BitLockerMethod } from '../manage-bde/parse-manage-bde-status.js';

const TOOL = 'wmic';

/**
 * wmic writes `/format:list` as UTF-16LE with a byte-order mark and CRLF (fixtures/wmic, all five
 * captures). Decodes those bytes; UTF-8 input (no BOM) is read as UTF-8.
 */
export function decodeWmicOutput(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Parses `wmic … get /format:list`: instances separated by blank lines, one `Name=Value` per line. wmic's
 * XSL writes `&` as `&amp;` (fixture latitude-7480 Win32_DiskDrive), which is decoded.
 */
export function parseWmicList(text: string): readonly Readonly<Record<string, string>>[] {
  const instances: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of splitOutputLines(TOOL, text.replace(/^\uFEFF/, ''))) {
    if (line.trim() === '') {
      current = null;
      continue;
    }
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match === null) {
      throw unrecognizedOutput(TOOL, 'a line is not Name=Value', line);
    }
    if (current === null) {
      current = Object.create(null) as Record<string, string>;
      instances.push(current);
    }
    current[match[1] ?? ''] = (match[2] ?? '').replace(/&amp;/g, '&').trim();
  }
  if (instances.length === 0) {
    throw unrecognizedOutput(TOOL, 'no Name=Value instance');
  }
  return instances;
}

/**
 * Win32_EncryptableVolume.EncryptionMethod (Microsoft Learn, "GetEncryptionMethod method of the
 * Win32_EncryptableVolume class"): 0 none, 1/2 AES-128/256 with diffuser, 3/4 AES-128/256 (CBC),
 * 5 hardware encryption, 6/7 XTS-AES-128/256.
 */
const ENCRYPTABLE_VOLUME_METHODS = [
  'None',
  'AES 128 with Diffuser',
  'AES 256 with Diffuser',
  'AES 128',
  'AES 256',
  'Hardware Encryption',
  'XTS-AES 128',
  'XTS-AES 256',
];

/** One Win32_EncryptableVolume instance: BitLocker state from WMI. */
export interface EncryptableVolume {
  readonly driveLetter: string | null;
  readonly method: BitLockerMethod;
  /** ProtectionStatus: 0 off, 1 on, 2 unknown. */
  readonly protectionOn: boolean | null;
  /** ConversionStatus: 0 fully decrypted, 1 fully encrypted, 2 encrypting, 3 decrypting, 4/5 paused. */
  readonly conversionStatus: number | null;
}

/** Reads Win32_EncryptableVolume instances from `wmic … path Win32_EncryptableVolume get /format:list`. */
export function parseEncryptableVolumes(text: string): readonly EncryptableVolume[] {
  return parseWmicList(text).map((instance) => {
    const methodNumber = instance['EncryptionMethod'];
    if (methodNumber === undefined || !/^\d$/.test(methodNumber)) {
      throw unrecognizedOutput(TOOL, 'a Win32_EncryptableVolume without a numeric EncryptionMethod');
    }
    const protection = instance['ProtectionStatus'];
    const conversion = instance['ConversionStatus'];
    return {
      driveLetter:
        instance['DriveLetter'] === undefined || instance['DriveLetter'] === ''
          ? null
          : instance['DriveLetter'],
      method: bitLockerMethodOf(ENCRYPTABLE_VOLUME_METHODS[Number(methodNumber)] ?? methodNumber),
      protectionOn: protection === '1' ? true : protection === '0' ? false : null,
      conversionStatus: conversion !== undefined && /^\d$/.test(conversion) ? Number(conversion) : null,
    };
  });
}
