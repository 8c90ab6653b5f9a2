import { defineEndpoint } from '#api/http/endpoint.ts';
import { putSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import { putSequenceProviderLink } from '#use-cases/put-sequence-provider-link.ts';

/** PUT /public/v1/sequences/{sequenceId}/provider-link */
export const handler = defineEndpoint(putSequenceProviderLinkEndpoint, (input) =>
  putSequenceProviderLink(input),
);
