import { z } from 'zod';
import type { EndpointSchemas } from './endpoint.ts';

/** GET /public/v1/auth */
export const authEndpoint = {
  response: z.object({ signed_in: z.boolean() }),
} satisfies EndpointSchemas;
