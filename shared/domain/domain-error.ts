/**
 * What the domain's errors have in common, and all an edge (HTTP, MCP, the
 * operator CLI) needs to answer one: its kind, its message, the request value
 * at fault. A module of its own, apart from the errors themselves
 * (errors.ts), so that an edge's static path does not carry every error of
 * the domain (docs/architecture.md, Bundles).
 */

/** The kinds the edges map: each names how the caller is at fault, or that the state stands in the way. */
export type DomainErrorKind =
  /** The request names something the organization does not have (another organization's is the same). */
  | 'not-found'
  /** The request itself is invalid in a way its schema cannot tell (a sequence not in the campaign). */
  | 'invalid'
  /** The request is valid but the current state refuses it; trying again later, or differently, may work. */
  | 'conflict'
  /** The request is well-formed but refused for what it says (an idempotency key reused with another body). */
  | 'refused'
  /** A service the request needs (a provider's API) could not be reached; the same request may work later. */
  | 'unavailable';

/** The base of every domain error. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** The request value at fault, when one is (errors of kind `invalid`). */
  readonly field?: InputField;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Where in a request an invalid value was given, so each edge can name it its own way. */
export interface InputField {
  in: 'body' | 'query' | 'path';
  name: string;
}
