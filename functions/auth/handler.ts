import { defineEndpoint } from '#api/http/endpoint.ts';
import { authEndpoint } from '#schemas/auth.ts';

/** GET /public/v1/auth — reaching the handler means the authorizer accepted the key. */
export const handler = defineEndpoint(authEndpoint, async () => ({ signed_in: true }));
