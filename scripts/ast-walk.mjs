// One walk over an ESTree AST (rolldown's parseAst), for the bundle's post-processing scripts.

/** Calls `enter` with every node of `ast`, parents before their children, in source order. */
export function walkAst(ast, enter) {
  const visit = (node) => {
    if (node === null || typeof node !== 'object') {
      return;
    }
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node.type === 'string') {
      enter(node);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'parent' && value !== null && typeof value === 'object') {
        visit(value);
      }
    }
  };
  visit(ast);
}

/** `code` with each `{ start, end, text }` edit applied (`end` = `start` inserts); edits must not overlap. */
export function applyEdits(code, edits) {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces = [];
  let at = 0;
  for (const edit of sorted) {
    pieces.push(code.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  pieces.push(code.slice(at));
  return pieces.join('');
}
