import type * as z from 'zod/mini';
import type { EndpointSchemas } from '#schemas/endpoint.ts';

/**
 * The shapes every use case of an endpoint speaks: it takes the input the
 * endpoint's zod schemas validated (path, query, body, each as the schema
 * outputs it) with the caller's organization, and returns the API resource
 * its response schema describes. The HTTP adapter hands its validated input
 * over as is; the MCP tools and the operator CLI build the same shape from
 * their arguments and flags.
 */

type Validated<Part extends string, Schema> = Schema extends z.core.$ZodType
  ? { readonly [P in Part]: z.output<Schema> }
  : unknown;

/** What a use case of the endpoint `S` takes. */
export type OperationInput<S extends EndpointSchemas> = { readonly orgId: number } & Validated<
  'path',
  S['path']
> &
  Validated<'query', S['query']> &
  Validated<'body', S['body']>;

/** What it returns: the response schema's resource. */
export type OperationOutput<S extends EndpointSchemas> = z.output<S['response']>;

/** What an operator use case takes when it acts for an organization the operator names. */
export interface ForOrganization {
  readonly orgId: number;
}
