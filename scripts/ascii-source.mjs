// Writes the bundle's source in ASCII alone, each other character as its escape (`…` → `\u2026`).
//
// V8 keeps a script's source as a string for as long as the script lives (lazy compilation and
// Function.prototype.toString read it). A source with a single character outside Latin-1 becomes a two-byte
// string, twice its size, and Node must transcode it from UTF-8 instead of copying it: the bundle's core and
// oclif chunks (1.9 MB, with a few hundred `…`, `×`, `→` and box-drawing characters) cost ~2 MiB of memory
// and ~10 ms at each start that way (docs/performance.md, "What start-up does").
//
// Each character is escaped where the grammar allows it and means the same: in a string literal, an untagged
// template, a regular expression (`\uXXXX` for each UTF-16 unit; `\u{…}` with the u or v flag) or an
// identifier (`\uXXXX`), and as text in a comment. A tagged template's raw text would change, so it is left as
// it is. The result is parsed again and compared with the original, node by node (values, not spellings):
// a difference fails the build.
import { parseAst } from 'rolldown/parseAst';
import { walkAst } from './ast-walk.mjs';

const NON_ASCII = /(\\*)([\u0080-\u{10ffff}])/gu;

const units = (character) =>
  [...Array(character.length).keys()]
    .map((index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`)
    .join('');

/** The escape of `character` in a token of `kind`. */
function escapeIn(kind, character) {
  if (kind === 'regex-unicode') {
    return `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
  }
  if (kind === 'identifier' && character.length > 1) {
    throw new Error(`ascii-source: an identifier holds ${character}, which has no \\uXXXX escape`);
  }
  return units(character);
}

/** The tokens that may hold a non-ASCII character, by position: [start, end, kind]. */
function tokensOf(ast) {
  const tokens = [];
  const tagged = new Set();
  walkAst(ast, (node) => {
    if (node.type === 'TaggedTemplateExpression') {
      node.quasi.quasis.forEach((quasi) => tagged.add(quasi));
    } else if (node.type === 'TemplateElement') {
      tokens.push([node.start, node.end, tagged.has(node) ? 'tagged' : 'text']);
    } else if (node.type === 'Literal' && node.regex !== undefined) {
      const unicode = /[uv]/u.test(node.regex.flags);
      tokens.push([node.start, node.end, unicode ? 'regex-unicode' : 'text']);
    } else if (node.type === 'Literal' && typeof node.value === 'string') {
      tokens.push([node.start, node.end, 'text']);
    } else if (node.type === 'Identifier' || node.type === 'PrivateIdentifier') {
      tokens.push([node.start, node.end, 'identifier']);
    }
  });
  return tokens.sort((a, b) => a[0] - b[0]);
}

/** The AST without positions and spellings: what the program means, for comparing two spellings of it. */
function meaning(ast) {
  return JSON.stringify(ast, (key, value) => {
    if (key === 'start' || key === 'end' || key === 'raw' || key === 'parent' || key === 'pattern') {
      return undefined;
    }
    return typeof value === 'bigint' ? `${value}n` : value;
  });
}

/** `code` with every non-ASCII character escaped (see the file's head); throws if the meaning would change. */
export function asciiSource(code) {
  if (!/[\u0080-\u{10ffff}]/u.test(code)) {
    return code;
  }
  const ast = parseAst(code);
  const tokens = tokensOf(ast);
  let next = 0;
  const out = code.replace(NON_ASCII, (match, slashes, character, offset) => {
    const at = offset + slashes.length;
    while (next < tokens.length && tokens[next][1] <= at) {
      next += 1;
    }
    const token = tokens[next];
    const kind = token !== undefined && token[0] <= at ? token[2] : 'comment';
    if (kind === 'tagged') {
      return match;
    }
    // An odd run of backslashes escapes the character itself (`\…` is `…`): the escape replaces that one.
    const kept = kind !== 'comment' && slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return kept + escapeIn(kind, character);
  });
  if (meaning(parseAst(out)) !== meaning(ast)) {
    throw new Error('ascii-source: escaping changed what the bundle means');
  }
  return out;
}
