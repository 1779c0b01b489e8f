/**
 * How smartctl means an ATA attribute's raw value: its drive database (smartmontools drivedb/drivedb.h, commit
 * f1d0da9ce840f9eac637bb89e11aa2980fa2419d) gives each attribute a raw format ("-v ID,FORMAT,NAME") per model
 * family. The 48-bit `raw.value` in smartctl's JSON is the whole field; the counter is the part the format names,
 * and `raw.string` is smartctl's own rendering of it. Only what the health analysis needs is encoded here, each
 * with the drivedb entry it comes from.
 */

/** A raw value read as smartctl means it. */
export interface RawCount {
  /** The counter: the first number of smartctl's rendering, or the largest of packed counters. */
  readonly count: number;
  /** How it was read, e.g. "raw16(raw16): low 16 bits" (shown beside the figure in findings). */
  readonly reading: string;
}

/**
 * Seagate families whose drivedb entry sets "-v 188,raw16": Command_Timeout holds three 16-bit counters
 * (smartctl ≥ 7.2 prints them "a b c"; older drive databases printed the packed 48-bit integer, e.g. 12/12/12 as
 * 51540393996 in fixture sata-hdd-seagate-exos-x16-188-packed-v7.1). drivedb.h entries, by family name.
 */
const SEAGATE_188_RAW16_FAMILIES: ReadonlySet<string> = new Set([
  'Seagate Momentus 7200.4',
  'Seagate Laptop HDD',
  'Seagate Laptop SSHD',
  'Seagate Barracuda 7200.12',
  'Seagate Barracuda XT',
  'Seagate Barracuda 7200.14 (AF)',
  'Seagate BarraCuda 3.5 (CMR)',
  'Seagate BarraCuda 3.5 (SMR)',
  'Seagate Desktop HDD.15',
  'Seagate Desktop SSHD',
  'Seagate BarraCuda 2.5',
  'Seagate BarraCuda Pro',
  'Seagate BarraCuda 3.5 (CMR+HAMR)',
  'Seagate Constellation CS',
  'Seagate Enterprise Capacity 3.5 HDD',
  'Seagate Exos 7E8',
  'Seagate Exos 7E10',
  'Seagate Exos 7E2000',
  'Seagate Exos 2X14',
  'Seagate Exos X16',
  'Seagate Exos X18',
  'Seagate Exos X20/X22',
  'Seagate Exos X24',
  'Seagate Exos Recertified (HAMR)',
  'Seagate Exos M',
  'Seagate FireCuda 3.5',
  'Seagate IronWolf',
  'Seagate IronWolf Pro',
  'Seagate IronWolf Pro (HAMR)',
  'Seagate SkyHawk',
  'Seagate SkyHawk AI',
  'Seagate Video 2.5',
]);

/**
 * drivedb "DEFAULT" formats of the counters the health analysis reads, used when smartctl printed no
 * `raw.string`: 5 and 196 are "raw16(raw16)" (the count is the low 16 bits), 9 is "raw24(raw8)" (hours in the low
 * 24 bits).
 */
const DEFAULT_MASKS: ReadonlyMap<number, { readonly bits: bigint; readonly format: string }> = new Map([
  [5, { bits: 0xffffn, format: 'raw16(raw16)' }],
  [196, { bits: 0xffffn, format: 'raw16(raw16)' }],
  [9, { bits: 0xffffffn, format: 'raw24(raw8)' }],
]);

/**
 * A Seagate drive: its 188 packs three 16-bit counters. drivedb sets "-v 188,raw16" for the 32 Seagate families
 * above; older Seagate entries (e.g. "Seagate Constellation ES.3") keep raw48 and smartctl prints the packed
 * integer (17180131332 = 4/1/4 in smartctl_exporter's ST3000NM0033 capture), which no drive reaches as a count.
 */
function isSeagate(modelFamily: string | null): boolean {
  return (
    modelFamily !== null && (SEAGATE_188_RAW16_FAMILIES.has(modelFamily) || /^Seagate /.test(modelFamily))
  );
}

function words16(raw: bigint): number[] {
  return [Number(raw & 0xffffn), Number((raw >> 16n) & 0xffffn), Number((raw >> 32n) & 0xffffn)];
}

/**
 * The counter an attribute's raw value holds, as smartctl means it: `raw.string`'s leading number ("2111 (12437 0)"
 * → 2111, "47060h+35m+00.858s" → 47060, "888 (Average 808)" → 888), the largest of three 16-bit counters
 * ("12 12 12", or Seagate's packed 188 from an older drive database), else the drivedb DEFAULT mask, else raw48.
 */
export function rawCountOf(
  id: number,
  raw: bigint | null,
  rawString: string | null,
  modelFamily: string | null,
): RawCount | null {
  const text = rawString?.trim() ?? '';
  const three = /^(\d+) (\d+) (\d+)$/.exec(text);
  if (three !== null) {
    return {
      count: Math.max(Number(three[1]), Number(three[2]), Number(three[3])),
      reading: `three 16-bit counters "${text}" (raw16), largest taken`,
    };
  }
  if (id === 188 && raw !== null && raw > 0xffffn && isSeagate(modelFamily)) {
    const words = words16(raw);
    const entry = SEAGATE_188_RAW16_FAMILIES.has(modelFamily ?? '')
      ? `drivedb "${modelFamily ?? ''}": -v 188,raw16`
      : 'drivedb sets -v 188,raw16 for 32 Seagate families';
    return {
      count: Math.max(...words),
      reading: `three 16-bit counters ${words.join('/')} (${entry}), largest taken`,
    };
  }
  const leading = /^(\d+)(?:h\+\d+m\+[\d.]+s| \(.*\))?$/.exec(text);
  if (leading?.[1] !== undefined) {
    const count = Number(leading[1]);
    return {
      count,
      reading: text === leading[1] ? 'raw value' : `first number of smartctl's "${text}"`,
    };
  }
  if (raw === null) {
    return null;
  }
  const mask = DEFAULT_MASKS.get(id);
  if (mask !== undefined) {
    return { count: Number(raw & mask.bits), reading: `${mask.format}: low bits of the raw value` };
  }
  return { count: Number(raw), reading: 'raw value' };
}

/** Hours per power-on-time unit of attribute 9, by the name drivedb gives it ("-v 9,minutes", "halfminutes", …). */
export function powerOnHoursFromAttribute(name: string, count: number): number | null {
  if (/^Power_On_Hours/i.test(name)) {
    return count;
  }
  if (/^Power_On_Half_Minutes/i.test(name)) {
    return Math.floor(count / 120);
  }
  if (/^Power_On_Minutes/i.test(name)) {
    return Math.floor(count / 60);
  }
  if (/^Power_On_Seconds/i.test(name)) {
    return Math.floor(count / 3600);
  }
  return null;
}

/** The unit of a write counter: bytes per unit, or the drive's logical block. */
export interface WriteUnit {
  readonly bytesPerUnit: bigint | 'logical-block';
  /** As shown beside the figure, e.g. "32 MiB units". */
  readonly label: string;
  /** Where the unit comes from. */
  readonly source: string;
}

const DRIVEDB = 'smartmontools drivedb.h';
const MIB32: WriteUnit = {
  bytesPerUnit: 33_554_432n,
  label: '32 MiB units',
  source: `${DRIVEDB} attribute name *_32MiB`,
};

/**
 * Families whose drivedb entry leaves a host-write attribute with a name that is not its unit. "Dell Certified
 * Intel S3520 Series SSDs" names 233 "Total_LBAs_Written" and leaves 241 at the DEFAULT "Total_LBAs_Written",
 * while the same drive's "Intel S3520 Series SSDs" entry names 241 "Host_Writes_32MiB"; the capture
 * (fixture sata-ssd-dell-intel-s3520-240gb-241-in-32mib-v7.1) shows 225 Host_Writes_32MiB = 233 = 241 = 129493.
 */
const FAMILY_WRITE_UNITS: ReadonlyMap<string, ReadonlyMap<number, WriteUnit>> = new Map([
  [
    'Dell Certified Intel S3520 Series SSDs',
    new Map([
      [
        241,
        {
          ...MIB32,
          source: `${DRIVEDB} "Intel S3520 Series SSDs" (-v 241,raw48,Host_Writes_32MiB); the Dell entry keeps the DEFAULT name`,
        },
      ],
      [
        233,
        {
          ...MIB32,
          source: `${DRIVEDB} "Dell Certified Intel S3520 Series SSDs"; equal to 225 Host_Writes_32MiB`,
        },
      ],
    ]),
  ],
]);

/** Host-write attribute names in drivedb and their units (NAND/flash write counters are not host writes). */
const HOST_WRITE_NAMES: readonly (readonly [RegExp, WriteUnit])[] = [
  [/^(Host|Total)_Writes_32MiB$/i, MIB32],
  [
    /^(Host|Total|Lifetime)_Writes_GiB$/i,
    { bytesPerUnit: 1_073_741_824n, label: 'GiB units', source: `${DRIVEDB} attribute name *_Writes_GiB` },
  ],
  [
    /^(Host_Writes_MiB)$/i,
    { bytesPerUnit: 1_048_576n, label: 'MiB units', source: `${DRIVEDB} attribute name Host_Writes_MiB` },
  ],
  [
    /^(Total_LBAs_Written|Total_Host_LBA_Written)$/i,
    {
      bytesPerUnit: 'logical-block',
      label: 'logical blocks',
      source: `${DRIVEDB} attribute name *LBA*_Written`,
    },
  ],
];

/** Attribute ids that hold host writes on some family (drivedb: 241, 225, 233, 246; 234 and 242 are not writes). */
export const HOST_WRITE_ATTRIBUTE_IDS = [241, 225, 246, 233] as const;

/**
 * The unit of a host-write attribute, from the family's drivedb entry first, then the attribute's name. Null when
 * the attribute is not a host-write counter or its unit is not known (an unknown drive's 241 carries the DEFAULT
 * name "Total_LBAs_Written" whatever it counts, so that name is trusted only for drives in the database).
 */
export function hostWriteUnitOf(
  id: number,
  name: string,
  modelFamily: string | null,
  inDriveDatabase: boolean | null,
): WriteUnit | null {
  const familyUnit = modelFamily === null ? undefined : FAMILY_WRITE_UNITS.get(modelFamily)?.get(id);
  if (familyUnit !== undefined) {
    return familyUnit;
  }
  for (const [pattern, unit] of HOST_WRITE_NAMES) {
    if (pattern.test(name)) {
      return unit.bytesPerUnit === 'logical-block' && inDriveDatabase === false ? null : unit;
    }
  }
  return null;
}
