import { unlinkSequence } from '#domain/sequence-links.ts';
import type { deleteSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { toSequenceProviderLink } from './sequence-provider-link-resource.ts';

type Endpoint = typeof deleteSequenceProviderLinkEndpoint;

/**
 * 1. Find the sequence (SequenceNotFound; another organization's alike) and its link
 *    (SequenceNotLinked).
 * 2. Clear the link and delete its link item in one transaction: the provider's webhooks for that
 *    campaign match nothing from then on, and nothing more is enrolled through it.
 * 3. Return the link it had.
 *
 * DELETE /public/v1/sequences/{sequenceId}/provider-link; `outreach-admin sequence unlink`; the
 * dashboard's connection page.
 */
export async function deleteSequenceProviderLink(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  return toSequenceProviderLink(await unlinkSequence(input.orgId, input.path.sequenceId));
}
