import type { SecurityCapability } from '../domain/drive-capabilities.js';
import type { Sed } from '../domain/sed.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import type { SedutilScanEntry } from '../parsers/sedutil/scan.js';

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
    explanation,
    evidence,
  };
}
