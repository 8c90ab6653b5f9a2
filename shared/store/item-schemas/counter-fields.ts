import * as z from 'zod/mini';

// A helper of the item schemas (no schema of its own, so no item validator is generated for it).

/** Counters as an item stores them, by name: each a number, 0 while never written. */
export function counterFields<const Name extends string>(names: readonly Name[]) {
  const counter = z._default(z.number(), 0);
  return Object.fromEntries(names.map((name) => [name, counter])) as Record<Name, typeof counter>;
}
