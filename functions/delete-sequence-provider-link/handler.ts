import { defineEndpoint } from '#api/http/endpoint.ts';
import { deleteSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import { deleteSequenceProviderLink } from '#use-cases/delete-sequence-provider-link.ts';

/** DELETE /public/v1/sequences/{sequenceId}/provider-link */
export const handler = defineEndpoint(deleteSequenceProviderLinkEndpoint, (input) =>
  deleteSequenceProviderLink(input),
);
