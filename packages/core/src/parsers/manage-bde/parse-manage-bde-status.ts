import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

const TOOL = 'manage-bde';

/** How BitLocker encrypts a volume, read from its "Encryption Method". */
export interface BitLockerMethod {
  /** As printed: "XTS-AES 128", "AES 256", "Hardware Encryption", "None", … */
  readonly text: string;
  /** xts-aes and aes-cbc are Windows' software encryption; hardware is the drive's own (eDrive/SED). */
  readonly kind: 'xts-aes' | 'aes-cbc' | 'hardware' | 'none' | 'unknown';
  readonly keyBits: 128 | 256 | null;
}

/** The conversion state, from manage-bde's English or German wording. */
export type BitLockerConversion =
  | 'fully-encrypted'
  | 'used-space-only-encrypted'
  | 'encryption-in-progress'
  | 'decryption-in-progress'
  | 'encryption-paused'
  | 'decryption-paused'
  | 'fully-decrypted'
  | 'unknown';

/** One volume of `manage-bde -status` (or the BitLocker fields of Get-BitLockerVolume). */
export interface BitLockerVolume {
  /** "C:" or a volume GUID path. */
  readonly volume: string;
  readonly label: string | null;
  readonly conversion: BitLockerConversion;
  readonly conversionText: string;
  /** Percentage Encrypted; may disagree with `conversion` (fixture: 100 % yet still in progress). */
  readonly percentEncrypted: number | null;
  readonly method: BitLockerMethod;
  readonly protectionOn: boolean | null;
  readonly locked: boolean | null;
  readonly keyProtectors: readonly string[];
}

/** English and German labels of manage-bde (Windows 10 19041, Windows 11 22621 captures). */
const LABELS: Readonly<
  Record<string, 'conversion' | 'percent' | 'method' | 'protection' | 'lock' | 'protectors' | 'other'>
> = {
  'conversion status': 'conversion',
  konvertierungsstatus: 'conversion',
  'percentage encrypted': 'percent',
  'verschlüsselt (prozent)': 'percent',
  'encryption method': 'method',
  verschlüsselungsmethode: 'method',
  'protection status': 'protection',
  schutzstatus: 'protection',
  'lock status': 'lock',
  sperrungsstatus: 'lock',
  'key protectors': 'protectors',
  schlüsselschutzvorrichtungen: 'protectors',
  size: 'other',
  größe: 'other',
  'bitlocker version': 'other',
  'bitlocker-version': 'other',
  'identification field': 'other',
  'id-feld': 'other',
  'automatic unlock': 'other',
  'automatische entsperrung': 'other',
};

/**
 * The method from its text. Microsoft documents XTS-AES 128/256 and AES-CBC 128/256 as BitLocker's
 * software methods and "Hardware Encryption" for eDrives (Microsoft Learn, "manage-bde on" -EncryptionMethod;
 * "Encrypted Hard Drive"). Used by the Get-BitLockerVolume reader too (XtsAes128, Aes256, Hardware, None).
 */
export function bitLockerMethodOf(text: string): BitLockerMethod {
  const compact = text.toLowerCase().replace(/[\s_-]/g, '');
  const bits = /(128|256)/.exec(compact);
  const keyBits = bits === null ? null : (Number(bits[1]) as 128 | 256);
  if (compact.includes('hardware')) {
    return { text, kind: 'hardware', keyBits: null };
  }
  if (compact === 'none' || compact === 'keine') {
    return { text, kind: 'none', keyBits: null };
  }
  if (compact.startsWith('xtsaes')) {
    return { text, kind: 'xts-aes', keyBits };
  }
  if (compact.startsWith('aes')) {
    return { text, kind: 'aes-cbc', keyBits };
  }
  return { text, kind: 'unknown', keyBits };
}

function conversionOf(text: string): BitLockerConversion {
  const lower = text.toLowerCase();
  const pairs: readonly (readonly [RegExp, BitLockerConversion])[] = [
    [/^used space only encrypted|^nur verwendeter speicherplatz verschlüsselt/, 'used-space-only-encrypted'],
    [/^fully encrypted|^vollständig verschlüsselt/, 'fully-encrypted'],
    [/^fully decrypted|^vollständig entschlüsselt/, 'fully-decrypted'],
    [/^encryption in progress|^verschlüsselung wird durchgeführt/, 'encryption-in-progress'],
    [/^decryption in progress|^entschlüsselung wird durchgeführt/, 'decryption-in-progress'],
    [/^encryption paused|^verschlüsselung angehalten/, 'encryption-paused'],
    [/^decryption paused|^entschlüsselung angehalten/, 'decryption-paused'],
  ];
  return pairs.find(([pattern]) => pattern.test(lower))?.[1] ?? 'unknown';
}

function onOff(text: string, on: RegExp, off: RegExp): boolean | null {
  return on.test(text) ? true : off.test(text) ? false : null;
}

/**
 * Parses `manage-bde -status [volume]` in English or German, with either decimal separator. A
 * document without one "Volume" block with a Conversion Status and an Encryption Method fails closed.
 */
export function parseManageBdeStatus(text: string): readonly BitLockerVolume[] {
  const volumes: BitLockerVolume[] = [];
  let current: {
    volume: string;
    label: string | null;
    fields: Map<string, string>;
    protectors: string[];
  } | null = null;
  let inProtectors = false;
  const finish = (): void => {
    if (current === null) {
      return;
    }
    const conversionText = current.fields.get('conversion');
    const methodText = current.fields.get('method');
    if (conversionText === undefined || methodText === undefined) {
      throw unrecognizedOutput(
        TOOL,
        `volume ${current.volume} has no conversion status or encryption method`,
      );
    }
    const percent = current.fields.get('percent');
    const percentMatch = percent === undefined ? null : /^(\d{1,3}(?:[.,]\d+)?)\s*%$/.exec(percent);
    volumes.push({
      volume: current.volume,
      label: current.label,
      conversion: conversionOf(conversionText),
      conversionText,
      percentEncrypted: percentMatch?.[1] === undefined ? null : Number(percentMatch[1].replace(',', '.')),
      method: bitLockerMethodOf(methodText),
      protectionOn: onOff(
        current.fields.get('protection') ?? '',
        /protection on|schutz ist aktiviert/i,
        /protection off|schutz ist deaktiviert/i,
      ),
      locked: onOff(current.fields.get('lock') ?? '', /^(locked|gesperrt)/i, /^(unlocked|entsperrt)/i),
      keyProtectors: current.protectors,
    });
    current = null;
  };
  for (const line of splitOutputLines(TOOL, text.replace(/^\uFEFF/, ''))) {
    const header = /^Volume\s+"?([^"\s]+?)"?\s+\[(.*)\]\s*$/.exec(line);
    if (header !== null) {
      finish();
      current = {
        volume: header[1] ?? '',
        label: header[2] === '' ? null : (header[2] ?? null),
        fields: new Map(),
        protectors: [],
      };
      inProtectors = false;
      continue;
    }
    if (current === null) {
      continue;
    }
    const field = /^\s{2,}([^:]+?):\s*(.*?)\s*$/.exec(line);
    const label = field === null ? undefined : LABELS[(field[1] ?? '').trim().toLowerCase()];
    if (field !== null && label !== undefined) {
      inProtectors = label === 'protectors';
      if (label !== 'protectors' && label !== 'other') {
        current.fields.set(label, field[2] ?? '');
      }
      continue;
    }
    if (inProtectors && /^\s{6,}\S/.test(line)) {
      current.protectors.push(line.trim());
      continue;
    }
    inProtectors = false;
  }
  finish();
  if (volumes.length === 0) {
    throw unrecognizedOutput(TOOL, 'no "Volume X: [label]" block');
  }
  return volumes;
}
