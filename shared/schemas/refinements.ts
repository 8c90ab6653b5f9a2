import {
  MAX_VARIABLE_BYTES,
  MAX_VARIABLES,
  MAX_VARIABLES_TOTAL_BYTES,
} from '#definitions/snippet-variables.ts';

/**
 * The refinements the schemas of shared/schemas/ test values with (`z.refine`,
 * `z.custom`): named functions in a module without zod, so the validators
 * compiled from those schemas (shared/schemas/compiled/, written by
 * `npm run build`) call the very same code.
 */

/** One snippet variable's value: at most MAX_VARIABLE_BYTES of UTF-8. */
export function withinVariableBytes(value: string): boolean {
  return Buffer.byteLength(value) <= MAX_VARIABLE_BYTES;
}

/** At most MAX_VARIABLES snippet variables. */
export function withinVariableCount(variables: Record<string, string>): boolean {
  return Object.keys(variables).length <= MAX_VARIABLES;
}

/** At most MAX_VARIABLES_TOTAL_BYTES of names and values in all (UTF-8). */
export function withinVariablesTotalBytes(variables: Record<string, string>): boolean {
  let total = 0;
  for (const [name, value] of Object.entries(variables))
    total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total <= MAX_VARIABLES_TOTAL_BYTES;
}

/** The MCP SDK's `AssertObjectSchema`: anything but null that `typeof` calls an object or a function. */
export function isObjectLike(value: unknown): value is object {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}
