import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

/** One cipher row; a null rate is cryptsetup's "N/A" (cipher or kernel module not available). */
export interface CryptsetupCipherRow {
  readonly cipher: string;
  readonly keyBits: number;
  readonly encryptBytesPerSecond: number | null;
  readonly decryptBytesPerSecond: number | null;
}

/** One PBKDF2 line; a null rate is "N/A" (the crypto backend lacks the hash). */
export interface CryptsetupPbkdf2Line {
  readonly hash: string;
  readonly iterationsPerSecond: number | null;
  readonly derivedKeyBits: number | null;
}

/** One argon2i/argon2id line. */
export interface CryptsetupArgon2Line {
  readonly variant: 'argon2i' | 'argon2id';
  readonly timeCost: number;
  readonly memoryKibibytes: number;
  readonly threads: number;
  readonly derivedKeyBits: number | null;
  readonly requestedDurationMs: number;
}

/** Everything one or more `cryptsetup benchmark` runs printed. */
export interface CryptsetupBenchmark {
  readonly pbkdf2: readonly CryptsetupPbkdf2Line[];
  readonly argon2: readonly CryptsetupArgon2Line[];
  readonly ciphers: readonly CryptsetupCipherRow[];
  /** cryptsetup printed "# Cipher speed test is not available." (no AF_ALG skcipher). */
  readonly cipherTestUnavailable: boolean;
}

/** Options of {@link parseCryptsetupBenchmark}. */
export interface ParseCryptsetupBenchmarkOptions {
  /**
   * Accept a pasted terminal transcript: skip shell prompt lines ("user@host:~$ sudo cryptsetup benchmark …") and
   * blank lines between runs. Off for output encplan captured itself, where any such line means something is wrong.
   */
  readonly transcript?: boolean;
}

const TOOL = 'cryptsetup benchmark';
// cryptsetup prints every rate as "%10.1f MiB/s" (src/cryptsetup.c, action_benchmark); MiB = 2^20 bytes.
const MIB = 1024 * 1024;
const RATE = String.raw`(N/A|\d{1,9}(?:\.\d{1,3})? MiB/s)`;
const HEADER = /^# Tests are approximate using memory only \(no storage IO\)\.$/;
const NOT_AVAILABLE = /^# Cipher speed test is not available\.$/;
// 1.6/1.7: "#  Algorithm | Key |  Encryption |  Decryption"; 2.x pads to the widest cipher name.
const TABLE_HEADER = /^#\s*Algorithm\s*\|\s*Key\s*\|\s*Encryption\s*\|\s*Decryption$/;
const CIPHER_ROW = new RegExp(String.raw`^\s*([a-z0-9][a-z0-9,._-]{0,63})\s+(\d{1,5})b\s+${RATE}\s+${RATE}$`);
// "PBKDF2-sha256    4088015 iterations per second for 256-bit key"; 1.6 ends after "per second"; "N/A" when missing.
const PBKDF2 =
  /^PBKDF2-([a-z0-9._-]{1,32})\s+(?:(\d{1,12}) iterations per second(?: for (\d{1,5})-bit key)?|N\/A)$/;
const ARGON2 =
  /^(argon2id|argon2i)\s+(\d{1,6}) iterations, (\d{1,10}) memory, (\d{1,4}) parallel threads \(CPUs\)(?: for (\d{1,5})-bit key)? \(requested (\d{1,7}) ms time\)$/;
// Pasted transcripts (transcript mode only). A prompt may hold spaces ("user@host:~ $", "[root@host ~]#"), so
// a line counts as a prompt when it runs the cryptsetup command after a prompt character, or when it is a bare
// prompt: short, ending in a prompt character. Seen in the fixtures: "p84~$ sudo cryptsetup benchmark -c …",
// "[root@ghrhel74crypt ~]# cryptsetup benchmark", "root@caesar:/# cryptsetup benchmark", "# cryptsetup benchmark".
const PROMPT_WITH_COMMAND =
  /^(?:.{0,120}?[$#%>])?\s*(?:(?:sudo|doas)\s+(?:-\S+\s+)*)?(?:\S*\/)?cryptsetup(?:\s.*)?$/;
const BARE_PROMPT = /^\S.{0,120}[$#%>]$/;

function rate(text: string): number | null {
  return text === 'N/A' ? null : Math.round(Number.parseFloat(text) * MIB);
}

/**
 * Parses the stdout of `cryptsetup benchmark` (cryptsetup 1.6 to 2.x, default list or `-c/--pbkdf` runs, and
 * several runs concatenated). Rates become integer bytes per second. Throws TOOL_OUTPUT_UNRECOGNIZED on any line it
 * does not know, and when no benchmark header is present (a translated or foreign output).
 */
export function parseCryptsetupBenchmark(
  text: string,
  options: ParseCryptsetupBenchmarkOptions = {},
): CryptsetupBenchmark {
  const pbkdf2: CryptsetupPbkdf2Line[] = [];
  const argon2: CryptsetupArgon2Line[] = [];
  const ciphers: CryptsetupCipherRow[] = [];
  let cipherTestUnavailable = false;
  let sawHeader = false;
  let inTable = false;
  const lines = splitOutputLines(TOOL, text);
  lines.forEach((rawLine, index) => {
    // Leading blanks carry no meaning: cryptsetup pads rows itself, and pasted outputs are often indented as a
    // whole (the cryptsetup 1.6.2 fixture indents every line, its table header included).
    const line = rawLine.trim();
    if (line === '') {
      // Only the final newline may leave an empty line in output encplan captured itself.
      if (options.transcript === true || index === lines.length - 1) {
        return;
      }
      throw unrecognizedOutput(TOOL, 'an empty line inside the output', rawLine);
    }
    if (HEADER.test(line)) {
      sawHeader = true;
      inTable = false;
      return;
    }
    if (NOT_AVAILABLE.test(line)) {
      cipherTestUnavailable = true;
      return;
    }
    if (TABLE_HEADER.test(line)) {
      inTable = true;
      return;
    }
    const pbkdf = PBKDF2.exec(line);
    if (pbkdf) {
      pbkdf2.push({
        hash: pbkdf[1]!,
        iterationsPerSecond: pbkdf[2] === undefined ? null : Number(pbkdf[2]),
        derivedKeyBits: pbkdf[3] === undefined ? null : Number(pbkdf[3]),
      });
      return;
    }
    const argon = ARGON2.exec(line);
    if (argon) {
      argon2.push({
        variant: argon[1] as 'argon2i' | 'argon2id',
        timeCost: Number(argon[2]),
        // cryptsetup prints the memory cost in KiB (lib/utils_pbkdf.c: max_memory_kb), without the unit.
        memoryKibibytes: Number(argon[3]),
        threads: Number(argon[4]),
        derivedKeyBits: argon[5] === undefined ? null : Number(argon[5]),
        requestedDurationMs: Number(argon[6]),
      });
      return;
    }
    const row = inTable ? CIPHER_ROW.exec(line) : null;
    if (row) {
      ciphers.push({
        cipher: row[1]!,
        keyBits: Number(row[2]),
        encryptBytesPerSecond: rate(row[3]!),
        decryptBytesPerSecond: rate(row[4]!),
      });
      return;
    }
    if (options.transcript === true && (PROMPT_WITH_COMMAND.test(line) || BARE_PROMPT.test(line))) {
      inTable = false;
      return;
    }
    throw unrecognizedOutput(TOOL, `line ${String(index + 1)} is not a benchmark line`, line);
  });
  if (!sawHeader) {
    throw unrecognizedOutput(TOOL, 'the "# Tests are approximate" header is missing');
  }
  return { pbkdf2, argon2, ciphers, cipherTestUnavailable };
}
