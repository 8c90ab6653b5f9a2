/**
 * The transforms the schemas of shared/schemas/ apply: named functions in a
 * module without zod, so the validators compiled from those schemas
 * (shared/schemas/compiled/, written by `npm run build`) call the very same code.
 */

/** An ISO 8601 date-time in the one form the service stores: UTC with milliseconds. */
export function canonicalTimestamp(value: string): string {
  return new Date(value).toISOString();
}
