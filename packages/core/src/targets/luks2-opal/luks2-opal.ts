import { luks2Target } from '../luks2/luks2.js';
import { luks2VolumeCommands, readLuks2Command } from '../luks2/commands.js';
import type { EncryptionTarget, LooseOpalLocking, TargetAdmission, TargetAdmissionFacts } from '../target.js';
import { opalLockingOf, type OpalDiscovery } from './sedutil-query.js';

export { parseSedutilQuery } from './sedutil-query.js';

/*
 * Sources of this target's policy:
 * - cryptsetup 2.7.0 release notes (gitlab.com/cryptsetup/cryptsetup, docs/v2.7.0-ReleaseNotes), "Introduce support
 *   for hardware OPAL disk encryption": OPAL2 TCG interface only; "using hardware disk encryption is controversial
 *   as you must trust proprietary hardware"; `--hw-opal` keeps dm-crypt on top of the OPAL locking range,
 *   `--hw-opal-only` uses the drive's encryption alone; the kernel SED interface does not work through USB
 *   adapters; Ruby and Pyrite are not supported and Pyrite does not encrypt; no reencryption of OPAL devices;
 *   a forgotten OPAL admin password leaves only a PSID factory reset, which erases the whole drive; the kernel
 *   does not report the drive's cipher.
 * - cryptsetup-luksFormat(8) (cryptsetup 2.7): "To use OPAL hardware encryption on a self-encrypting drive, use
 *   --hw-opal or --hw-opal-only"; Linux CONFIG_BLK_SED_OPAL (block/sed-opal.c).
 * - Carlo Meijer and Bernard van Gastel, "Self-encrypting deception: weaknesses in the encryption of solid state
 *   drives", IEEE Symposium on Security and Privacy 2019: on several drives the data key was not derived from
 *   the password; Microsoft ADV180028 and KB4516071 made BitLocker stop trusting drive encryption by default.
 */

/** Why encplan never relies on the drive's encryption alone. */
const TRUST =
  'The drive’s own encryption has been broken before (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019): encplan plans --hw-opal, which keeps dm-crypt on top of the OPAL locking range, never --hw-opal-only (cryptsetup 2.7.0 release notes).';

/**
 * Whether the drive can carry an OPAL locking range for cryptsetup: TCG Opal 2 confirmed by sedutil-cli (the
 * transport bits NVMe OACS bit 0 / ATA Trusted Computing alone do not prove it), not Pyrite only, not behind a
 * USB bridge. Unknown is not admitted: encplan does not format a drive on a guess.
 */
export function admitOpal(facts: TargetAdmissionFacts): TargetAdmission {
  const sed = facts.sed;
  if (facts.behindUsbBridge === true) {
    return {
      admitted: false,
      reason:
        'The disk is behind a USB bridge, and the kernel’s SED interface does not work through USB adapters (cryptsetup 2.7.0 release notes): plan --target luks2 instead.',
    };
  }
  if (sed === null) {
    return {
      admitted: false,
      reason:
        'Nothing reported whether the drive is an OPAL self-encrypting drive (run encplan assess as root with sedutil-cli installed).',
    };
  }
  if (sed.opal2 === true) {
    const locking = sed.opalLocking;
    if (locking === undefined) {
      return { admitted: true };
    }
    if (locking.locked === true) {
      return {
        admitted: false,
        reason:
          'A locking range of the drive is locked now (sedutil-cli --query: Locked = Y): its sectors cannot be read or written until the tool that set it up unlocks it, so nothing is formatted on it.',
      };
    }
    return { admitted: true, notes: lockingNotes(locking) };
  }
  if (sed.pyrite === true) {
    return {
      admitted: false,
      reason:
        'The drive reports only TCG Pyrite: it can lock but does not encrypt, and cryptsetup’s OPAL support does not drive it (cryptsetup 2.7.0 release notes).',
    };
  }
  if (sed.opal1 === true || sed.enterprise === true) {
    return {
      admitted: false,
      reason: `The drive reports TCG ${sed.opal1 === true ? 'Opal 1' : 'Enterprise SSC'}; cryptsetup drives OPAL2 only (cryptsetup 2.7.0 release notes).`,
    };
  }
  return {
    admitted: false,
    reason:
      sed.status === 'possible'
        ? 'The drive has the security transport OPAL needs (NVMe OACS bit 0 / ATA Trusted Computing), but no tool confirmed TCG Opal 2: run sedutil-cli --scan (as root) and assess again.'
        : 'The drive is not a TCG Opal 2 self-encrypting drive.',
  };
}

/**
 * What the drive's TCG locking state (the sed section's `opalLocking`, from `sedutil-cli --query`) means for this
 * target: an activated Locking SP means locking ranges are already set up (by a pre-boot tool, a BIOS drive
 * password or an earlier cryptsetup --hw-opal), so formatting needs that admin password, or a PSID revert that
 * erases the whole drive (cryptsetup 2.7.0 release notes); MBR shadowing means a pre-boot image stands in front
 * of the data until it unlocks the drive (TCG Storage Opal SSC 2.0, §4.3.5.4 MBR Control).
 */
function lockingNotes(locking: LooseOpalLocking): string[] {
  if (locking.unknownReason !== null && locking.unknownReason !== undefined) {
    return [
      `The drive’s TCG locking state is unknown (${locking.unknownReason}): if its Locking SP is already activated, cryptsetup asks for that OPAL admin password.`,
    ];
  }
  const ranges = locking.rangesBesidesGlobal ?? null;
  return [
    ...(locking.mediaEncrypt === false
      ? ['The drive says it does not encrypt its media (MediaEncrypt = N).']
      : []),
    ...(locking.enabled === true
      ? [
          `Its Locking SP is already activated${ranges === null ? '' : ` (${String(ranges)} locking ranges besides the global range)`}: cryptsetup needs the OPAL admin password set then; without it only a PSID revert (the code on the drive label) resets the drive, and it erases everything on it.`,
        ]
      : locking.enabled === false
        ? ['Its Locking SP is not activated: no locking range is in use yet.']
        : []),
    ...(locking.mbrShadowing?.enabled === true
      ? [
          `MBR shadowing is on${locking.mbrShadowing?.done === true ? ' (the shadow is hidden now)' : ''}: a pre-boot authentication image unlocks this drive at power-on, and the tool that installed it holds the admin password cryptsetup asks for.`,
        ]
      : []),
  ];
}

/** {@link lockingNotes} of a `sedutil-cli --query` answer, with the Opal SSC version it names. */
export function opalStateNotes(discovery: OpalDiscovery): string[] {
  return [
    discovery.opalVersion === null
      ? 'The drive lists no Opal SSC feature in its Level 0 Discovery.'
      : `The drive implements the TCG Opal SSC ${discovery.opalVersion}.`,
    ...lockingNotes(opalLockingOf({ discovery, unknownReason: null })),
  ];
}

/**
 * LUKS2 on an OPAL 2 self-encrypting drive (cryptsetup 2.7 luksFormat --hw-opal): the drive encrypts an OPAL
 * locking range and dm-crypt encrypts on top of it. Never the default: only when the user asks for it
 * (--target luks2-opal) and the drive is confirmed OPAL 2.
 */
export const luks2OpalTarget = {
  id: 'luks2-opal',
  labels: {
    short: 'LUKS2 on OPAL',
    withTool: 'LUKS2 on an OPAL locking range (cryptsetup --hw-opal)',
    home: 'LUKS2 with OPAL is Linux’s (cryptsetup 2.7 and a kernel with CONFIG_BLK_SED_OPAL)',
  },
  facts: [...luks2Target.facts, 'sed'],
  platforms: ['linux'],
  defaultOn: [],
  planOption: true,
  // The inventory names such a header luks2 (the luks2 target owns the format); its data segment type says OPAL:
  // cryptsetup v2.7.0, lib/luks2/luks2_segment.c json_segment_create_opal_crypt ("hw-opal-crypt", luksFormat
  // --hw-opal) and json_segment_create_opal ("hw-opal", --hw-opal-only).
  recognition: {
    encryptedFormats: [],
    unencryptedFormats: [],
    layerKinds: [],
    flagsInHeader: [],
    mappingNames: null,
    layerDiscards: null,
    luks2Segments: [
      {
        type: 'hw-opal-crypt',
        label: 'LUKS2 + OPAL',
        softwareEncryption: true,
        note: 'dm-crypt encrypts on top of the drive’s OPAL locking range (cryptsetup --hw-opal): the data stays protected by dm-crypt’s cipher even where the drive’s own encryption is weak (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019).',
      },
      {
        type: 'hw-opal',
        label: 'OPAL only (hardware)',
        softwareEncryption: false,
        note: 'Only the drive’s firmware encrypts this data (cryptsetup --hw-opal-only: no dm-crypt, no software cipher), and drive encryption has been broken before: on several drives the data key was not derived from the password (Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019). cryptsetup cannot reencrypt an OPAL device (cryptsetup 2.7.0 release notes): to add dm-crypt, back up, then format again with --hw-opal (plan --target luks2-opal) or plain LUKS2, and restore.',
      },
    ],
  },
  admit: admitOpal,
  tradeOffs: [
    TRUST,
    'No reencryption: cryptsetup cannot reencrypt an OPAL device, so an existing filesystem is never encrypted in place and the volume key can only be changed by formatting again (cryptsetup 2.7.0 release notes).',
    'Forgetting the OPAL admin password leaves only a PSID revert, which erases the whole drive, every partition on it (cryptsetup 2.7.0 release notes).',
    'The kernel does not report which cipher the drive uses (usually AES-XTS); only the dm-crypt layer’s cipher is known.',
    'The drive must stay on a SATA or NVMe port: no USB enclosure passes the SED commands.',
  ],
  settings: {
    ...luks2Target.settings,
    // cryptsetup cannot reencrypt an OPAL device (cryptsetup 2.7.0 release notes).
    inPlaceEncryption: false,
    inPlaceRefusal:
      'cryptsetup cannot reencrypt an OPAL device (cryptsetup 2.7.0 release notes), so LUKS2 on OPAL always formats (no in-place encryption, not even with a detached header)',
    // An open LUKS2 volume is not an OPAL one: asking for OPAL means formatting, not tuning it.
    refreshOpenVolume: false,
  },
  // The same dm-crypt volume as LUKS2's on top of the locking range: its keyslot, GRUB and host findings.
  volumePlan: luks2Target.volumePlan,
  commands: {
    // sgdisk 8309 "Linux LUKS".
    gptType: '8309',
    partitions: true,
    // --hw-opal: an OPAL locking range with dm-crypt on top (cryptsetup-luksFormat(8), cryptsetup 2.7); luksFormat
    // asks for the OPAL admin password as well as the passphrase. No refresh: an open LUKS2 volume is not an
    // OPAL one (settings.refreshOpenVolume is false).
    volume: (input) => luks2VolumeCommands(input, ['--hw-opal']),
    read: readLuks2Command,
  },
  // An OPAL locking range needs a real self-encrypting drive: no container file can stand in for one.
  benchmark: null,
} as const satisfies EncryptionTarget;
