import { unrecognized } from '../json-reader.js';
import {
  plistBoolean,
  plistDicts,
  plistNumber,
  plistString,
  plistStrings,
  type PlistDict,
} from '../plist/parse-plist.js';
import { parseDiskutilDocument, requiredPlistString } from './diskutil-document.js';

const COMMAND = 'diskutil apfs list -plist';

/** One APFS volume of `diskutil apfs list -plist`. */
export interface ApfsVolume {
  readonly deviceIdentifier: string;
  readonly name: string | null;
  /** "System", "Data", "Preboot", "Recovery", "VM", …; empty on pre-Catalina layouts. */
  readonly roles: readonly string[];
  /** The volume's data is encrypted (by FileVault, by an encrypted APFS volume or by the controller). */
  readonly encryption: boolean | null;
  /** FileVault protects the volume. Absent in High Sierra's diskutil: null. Encrypted is not FileVault. */
  readonly fileVault: boolean | null;
  readonly locked: boolean | null;
  /** An encryption or decryption is converting the volume now. */
  readonly cryptoMigrationOn: boolean | null;
  readonly capacityInUseBytes: number | null;
}

/** One APFS container and its volumes. */
export interface ApfsContainer {
  readonly containerReference: string;
  readonly capacityCeilingBytes: number | null;
  readonly capacityFreeBytes: number | null;
  readonly physicalStores: readonly string[];
  readonly volumes: readonly ApfsVolume[];
}

function volumeOf(dict: PlistDict): ApfsVolume {
  return {
    deviceIdentifier: requiredPlistString(COMMAND, dict, 'DeviceIdentifier', 'a volume'),
    name: plistString(dict, 'Name'),
    roles: plistStrings(dict, 'Roles'),
    encryption: plistBoolean(dict, 'Encryption'),
    fileVault: plistBoolean(dict, 'FileVault'),
    locked: plistBoolean(dict, 'Locked'),
    cryptoMigrationOn: plistBoolean(dict, 'CryptoMigrationOn'),
    capacityInUseBytes: plistNumber(dict, 'CapacityInUse'),
  };
}

/** Parses `diskutil apfs list -plist`: every container with its physical stores and volumes. */
export function parseDiskutilApfsList(text: string): readonly ApfsContainer[] {
  const root = parseDiskutilDocument(COMMAND, text);
  if (!Array.isArray(root['Containers'])) {
    throw unrecognized(COMMAND, 'no Containers array');
  }
  return plistDicts(root, 'Containers').map((container) => {
    return {
      containerReference: requiredPlistString(COMMAND, container, 'ContainerReference', 'a container'),
      capacityCeilingBytes: plistNumber(container, 'CapacityCeiling'),
      capacityFreeBytes: plistNumber(container, 'CapacityFree'),
      physicalStores: plistDicts(container, 'PhysicalStores').flatMap((store) => {
        const id = plistString(store, 'DeviceIdentifier');
        return id === null ? [] : [id];
      }),
      volumes: plistDicts(container, 'Volumes').map(volumeOf),
    };
  });
}
