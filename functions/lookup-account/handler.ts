import { defineEndpoint } from '#api/http/endpoint.ts';
import { lookupAccountEndpoint } from '#schemas/accounts.ts';
import { lookupAccount } from '#use-cases/lookup-account.ts';

/** GET /public/v1/accounts — one account by domain and/or id, signals optionally limited to a campaign's. */
export const handler = defineEndpoint(lookupAccountEndpoint, (input) => lookupAccount(input));
