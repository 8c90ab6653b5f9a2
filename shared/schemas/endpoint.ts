import type * as z from 'zod/mini';

/**
 * The zod schemas describing one endpoint: the HTTP adapter validates and
 * shapes with them, and the same ones generate the OpenAPI document. Typed
 * as zod's core schema type, so any zod schema fits (zod/mini's, and a
 * test's own).
 */
export interface EndpointSchemas {
  path?: z.core.$ZodType;
  query?: z.core.$ZodType;
  body?: z.core.$ZodType;
  response: z.core.$ZodType;
  /** `none` for the few unauthenticated routes; default `apiKey` (the authorizer's organization). */
  auth?: 'apiKey' | 'none';
}
