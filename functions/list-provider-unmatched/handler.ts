import { defineEndpoint } from '#api/http/endpoint.ts';
import { listProviderUnmatchedEndpoint } from '#schemas/provider-connections.ts';
import { listProviderUnmatched } from '#use-cases/list-provider-unmatched.ts';

/** GET /public/v1/provider-connections/{id}/unmatched */
export const handler = defineEndpoint(listProviderUnmatchedEndpoint, (input) => listProviderUnmatched(input));
