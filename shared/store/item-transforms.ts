import type { SnippetVariables } from '#schemas/variables.ts';

/**
 * The transforms item schemas apply when an item is read, as named functions
 * tested on their own.
 */

/** An assignment's snippet variables as a Map, so that names like `constructor` are names, never a prototype lookup. */
export function snippetVariablesOf(variables: Record<string, string> | undefined): SnippetVariables {
  return new Map(Object.entries(variables ?? {}));
}

/** A qualification as the service reads it: `listed` when it is in its campaign's ranking (it has a gsi1 key). */
export function qualificationOf<Fields extends object>({
  gsi1pk,
  newOpportunity,
  ...qualification
}: Fields & { gsi1pk?: string; newOpportunity?: boolean }) {
  return { ...qualification, listed: gsi1pk !== undefined, newOpportunity: newOpportunity === true };
}
