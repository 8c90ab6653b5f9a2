import type { z } from 'zod';

/**
 * The zod schemas describing one endpoint: the HTTP adapter validates and
 * shapes with them, and the same ones generate the OpenAPI document.
 */
export interface EndpointSchemas {
  path?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** `none` for the few unauthenticated routes; default `apiKey` (the authorizer's organization). */
  auth?: 'apiKey' | 'none';
}
