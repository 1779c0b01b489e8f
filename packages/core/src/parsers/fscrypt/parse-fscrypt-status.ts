import { assertInputSize } from '../json-reader.js';

const TOOL = 'fscrypt';

/** What `fscrypt status DIR` says about one directory. */
export interface FscryptDirectoryStatus {
  readonly encrypted: boolean;
  /** The policy identifier (hex), e.g. "acb43f320d33ab770fb4f3375be29b96"; null when not encrypted. */
  readonly policyId: string | null;
  /** The contents encryption mode, e.g. "AES_256_XTS". */
  readonly contentsMode: string | null;
  readonly policyVersion: number | null;
  /** "Unlocked: Yes" — the kernel holds the key. */
  readonly unlocked: boolean | null;
  /** Protector ids (16 hex digits) listed under the policy. */
  readonly protectorIds: readonly string[];
}

/**
 * Parses the stdout of `fscrypt status DIR` (fscrypt v0.3, fixtures fscrypt/status-*): a directory is
 * encrypted only when fscrypt says `is encrypted with fscrypt` and prints a policy id. Anything else (a plain
 * directory makes fscrypt exit 1 with "is not encrypted" on stderr and nothing on stdout) reads as not encrypted.
 */
export function parseFscryptStatus(text: string): FscryptDirectoryStatus {
  assertInputSize(TOOL, text);
  const field = (name: string): string | null => {
    const match = new RegExp(`^${name}:\\s*(.*?)\\s*$`, 'm').exec(text);
    return match?.[1] ?? null;
  };
  const policyId = field('Policy');
  const encrypted =
    /is encrypted with fscrypt\./.test(text) && policyId !== null && /^[0-9a-f]{16,64}$/.test(policyId);
  const options = new Map(
    (field('Options') ?? '')
      .split(/\s+/)
      .filter((option) => option.includes(':'))
      .map(
        (option) => [option.slice(0, option.indexOf(':')), option.slice(option.indexOf(':') + 1)] as const,
      ),
  );
  const unlocked = field('Unlocked');
  const protectorIds = [...text.matchAll(/^([0-9a-f]{16})\s+(?:Yes|No)\b/gm)].map((match) => match[1] ?? '');
  const version = Number(options.get('policy_version'));
  return {
    encrypted,
    policyId: encrypted ? policyId : null,
    contentsMode: encrypted ? (options.get('contents') ?? null) : null,
    policyVersion: encrypted && Number.isInteger(version) ? version : null,
    unlocked: unlocked === null ? null : unlocked.startsWith('Yes'),
    protectorIds: encrypted ? protectorIds : [],
  };
}
