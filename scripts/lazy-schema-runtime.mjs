// The runtime of scripts/lazy-schemas.mjs, bundled with the core: a module-level zod schema built on first use.
//
// `lazySchema(build)` returns an object that becomes the schema `build()` describes the first time one of its
// properties is read (`schema.parse`, `schema.options`, or `schema._zod` when a parent schema parses through it
// or turns it into JSON Schema). Until then its prototype is a proxy whose traps do that; then zod's constructor
// for the schema's kind runs on the object itself, with the definition `build()` produced (zod's constructors are
// plain functions that initialise `this`: `$constructor` in zod/v4/core/core.js), and the proxy is gone from its
// prototype chain. So the object is a schema in every respect, its identity included: zod's JSON Schema
// generator keys what it has seen by the instance (`ctx.seen.get(schema)` in its processors), and a parent
// schema holds this very object. A schema that is never read is never built. (One that is costs two
// constructions, `build()`'s and its own: only the few a run uses.)

/** An object that turns into the zod schema `build()` returns on the first read of any of its properties. */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema(build) {
  // A plain object, not Object.create(null): V8 keeps that one in dictionary mode, whose property reads are
  // slower, and this one becomes a schema parsed thousands of times by `fleet report`.
  const schema = {};
  let built = false;
  const become = () => {
    if (!built) {
      built = true;
      const made = build();
      Object.setPrototypeOf(schema, Object.getPrototypeOf(made));
      made._zod.constr.call(schema, made._zod.def);
    }
    return schema;
  };
  Object.setPrototypeOf(
    schema,
    new Proxy(Object.create(null), {
      get: (_target, key) => Reflect.get(become(), key),
      has: (_target, key) => Reflect.has(become(), key),
      set: (_target, key, value) => Reflect.set(become(), key, value),
    }),
  );
  return schema;
}
