import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';

/** GET /public/v1/auth */
export const authEndpoint = {
  response: z.object({ signed_in: z.boolean() }),
} satisfies EndpointSchemas;
