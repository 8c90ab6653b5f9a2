import { defineEndpoint } from '#api/http/endpoint.ts';
import { getSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import { getSequenceProviderLink } from '#use-cases/get-sequence-provider-link.ts';

/** GET /public/v1/sequences/{sequenceId}/provider-link */
export const handler = defineEndpoint(getSequenceProviderLinkEndpoint, (input) =>
  getSequenceProviderLink(input),
);
