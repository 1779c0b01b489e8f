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
