import type { SecurityCapability } from '../domain/drive-capabilities.js';
import type { OpalLocking, Sed } from '../domain/sed.js';
import type { StorageLayer } from '../domain/storage-model.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import type { SedutilScanEntry } from '../parsers/sedutil/scan.js';
import { opalLockingOf, type OpalQuery } from '../targets/luks2-opal/sedutil-query.js';

/** Why the plan still defaults to software encryption on a SED (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019; Microsoft ADV180028, KB4516071). */
const SOFTWARE_FIRST =
  'encplan recommends software encryption (optionally on top of Opal): SED firmware has been broken before (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019; Microsoft ADV180028).';

function firstBoolean(
  capabilities: readonly SecurityCapability[],
  pick: (capability: SecurityCapability) => boolean | null,
): boolean | null {
  for (const capability of capabilities) {
    const value = pick(capability);
    if (value !== null) {
      return value;
    }
  }
  return null;
}

/**
 * Judges self-encrypting-drive capability from sedutil-cli --scan (when present) and the prerequisites the
 * drive reports: NVMe OACS bit 0, ATA Trusted Computing and the ATA Security feature set (sedutil-cli --scan; TCG Storage Opal SSC Level 0 Discovery; NVMe OACS bit 0).
 */
export function assessSed(
  capabilities: readonly SecurityCapability[],
  sedutil: SedutilScanEntry | null,
  opalQuery: OpalQuery | null = null,
): Sed {
  const evidence: FactSource[] = capabilities.map((capability) => sourceOf(capability.origin, null));
  const nvmeSecuritySendReceive = firstBoolean(capabilities, (c) => c.nvmeSecuritySendReceive);
  const ataTrustedComputing = firstBoolean(capabilities, (c) => c.ataTrustedComputing);
  const security = capabilities.find((capability) => capability.ataSecurity !== null)?.ataSecurity ?? null;
  let status: Sed['status'];
  let explanation: string;
  if (sedutil !== null) {
    evidence.push(sourceOf('sedutil-cli', '--scan'));
    if (sedutil.opal1 || sedutil.opal2) {
      status = 'opal';
      explanation = `sedutil-cli reports TCG Opal ${sedutil.opal2 ? '2' : '1'} (flags "${sedutil.flags}"). ${SOFTWARE_FIRST}`;
    } else if (sedutil.enterprise) {
      status = 'enterprise';
      explanation = `sedutil-cli reports TCG Enterprise SSC (flags "${sedutil.flags}"). ${SOFTWARE_FIRST}`;
    } else if (sedutil.pyrite) {
      status = 'pyrite-only';
      explanation =
        'sedutil-cli reports only TCG Pyrite: the drive can lock but does not encrypt (cryptsetup 2.7.0 release notes).';
    } else {
      status = 'not-sed';
      explanation = 'sedutil-cli reports no TCG security subsystem on this drive.';
    }
  } else if (nvmeSecuritySendReceive === true || ataTrustedComputing === true) {
    status = 'possible';
    explanation = `The drive supports ${nvmeSecuritySendReceive === true ? 'NVMe Security Send/Receive (OACS bit 0)' : 'ATA Trusted Computing'}, the transport Opal needs; run \`sedutil-cli --scan\` to know whether it is an Opal SED. ${SOFTWARE_FIRST}`;
  } else if (nvmeSecuritySendReceive === false || ataTrustedComputing === false) {
    status = 'not-sed';
    explanation =
      'The drive lacks the security transport Opal needs (no Security Send/Receive / Trusted Computing).';
  } else {
    status = 'unknown';
    explanation = "No tool reported the drive's security features.";
  }
  return {
    status,
    opal1: sedutil?.opal1 ?? null,
    opal2: sedutil?.opal2 ?? null,
    enterprise: sedutil?.enterprise ?? null,
    pyrite: sedutil?.pyrite ?? null,
    nvmeSecuritySendReceive,
    ataTrustedComputing,
    ataSecurity:
      security === null
        ? null
        : {
            supported: security.supported,
            enabled: security.enabled,
            locked: security.locked,
            frozen: security.frozen,
          },
    ...(opalQuery === null ? {} : { opalLocking: opalLockingOf(opalQuery) }),
    explanation,
    evidence: opalQuery?.discovery ? [...evidence, sourceOf('sedutil-cli', '--query')] : evidence,
  };
}

/**
 * The drive's OPAL locking as a layer of the storage model: present when the Locking SP is activated
 * (`sedutil-cli --query` LockingEnabled = Y), on the disk, encrypted by the drive (`hardware`). Which LBAs its
 * ranges cover needs the admin password (sedutil-cli --listLockingRanges), so no partition or volume is placed on
 * it and no volume counts as encrypted by it.
 */
export function opalLockingLayers(diskId: string, locking: OpalLocking | null | undefined): StorageLayer[] {
  if (locking?.enabled !== true) {
    return [];
  }
  const ranges = locking.rangesBesidesGlobal;
  return [
    {
      id: `${diskId}#opal-locking`,
      kind: 'opal-locking-range',
      name: `global range${ranges === null ? '' : ` and up to ${String(ranges)} more`}`,
      sizeBytes: null,
      on: [diskId],
      otherDisks: [],
      encryption: {
        kind: 'opal',
        scope: 'block',
        // The kernel and the discovery do not say which cipher the drive uses (cryptsetup 2.7.0 release notes).
        cipher: null,
        keyBits: null,
        hardware: true,
        protection: 'on',
        conversion: null,
        percentEncrypted: null,
        keySlots: [],
        source: 'sedutil-cli --query',
      },
      passesDiscards: null,
    },
  ];
}
