import { sequenceLinkOf } from '#domain/sequence-links.ts';
import type { getSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import type { OperationInput, OperationOutput } from './operation.ts';
import { toSequenceProviderLink } from './sequence-provider-link-resource.ts';

type Endpoint = typeof getSequenceProviderLinkEndpoint;

/**
 * 1. Read the organization's campaigns and find the sequence (SequenceNotFound; another
 *    organization's alike): one Query.
 * 2. Return its link (SequenceNotLinked when it has none). The provider is not asked: whether the
 *    campaign takes leads now is what linking it answers.
 *
 * GET /public/v1/sequences/{sequenceId}/provider-link.
 */
export async function getSequenceProviderLink(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  return toSequenceProviderLink(await sequenceLinkOf(input.orgId, input.path.sequenceId));
}
