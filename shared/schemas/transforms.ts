import { VARIABLE_NAME_RULE } from '#definitions/snippet-variables.ts';
import { normalizeDomain } from './domain-names.ts';
import { addTransformIssue, type TransformContext } from './transform-issue.ts';

/**
 * The transforms the schemas of shared/schemas/ apply, as named functions:
 * tested on their own (and at their edges) apart from the schemas.
 */

/** An ISO 8601 date-time in the one form the service stores: UTC with milliseconds. */
export function canonicalTimestamp(value: string): string {
  return new Date(value).toISOString();
}

/** A domain, URL or host as its normalized domain (domain-names.ts); one without a usable domain is an issue. */
export function normalizedDomain(value: string, context: TransformContext): string {
  const domain = normalizeDomain(value);
  if (domain !== null) return domain;
  addTransformIssue(context, { code: 'custom', message: 'is not a usable domain' });
  return value;
}

/**
 * Snippet variables as given, but for an own `__proto__` key, refused with
 * the name rule: zod's record and the DynamoDB marshaller both drop that key
 * without a word (variables.ts).
 */
export function variablesWithoutProto(input: unknown, context: TransformContext): unknown {
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
    addTransformIssue(context, { code: 'custom', message: VARIABLE_NAME_RULE, path: ['__proto__'], input });
  }
  return input;
}

/** Checked snippet variables as the Map the service keeps them in (variables.ts says why a Map). */
export function variablesMap(variables: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(variables));
}

/** The MCP SDK's preprocessing of a client's elicitation capability: `{}` means form elicitation. */
export function formElicitationByDefault(value: unknown): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0
    ? { form: {} }
    : value;
}
