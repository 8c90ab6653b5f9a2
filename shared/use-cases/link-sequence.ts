import { getOrganization } from '#domain/organizations.ts';
import { getProviderConnection } from '#domain/provider-connections.ts';
import { linkSequence as link } from '#domain/sequence-links.ts';
import type { ForOrganization } from './operation.ts';

/** What `sequence link` names: a sequence, the connection it runs on, and the provider's campaign id. */
export interface SequenceLinkInput extends ForOrganization {
  readonly sequenceId: number;
  readonly connectionId: number;
  readonly externalId: string;
}

/** The link as made. */
export interface SequenceLink {
  campaignId: number;
  sequenceId: number;
  connectionId: number;
  provider: string;
  externalId: string;
}

/**
 * 1. The organization the operator names must exist (OrganizationNotFound); then read the connection
 *    (ProviderConnectionNotFound for an unknown one).
 * 2. Link the sequence to the provider's campaign: the sequence must be of the connection's
 *    provider (SequenceProviderMismatch) and exist (SequenceNotFound). An external id linked
 *    to another sequence before moves to this one.
 * 3. Return the link.
 *
 * `outreach-admin sequence link`.
 */
export async function linkSequence(input: SequenceLinkInput): Promise<SequenceLink> {
  await getOrganization(input.orgId);
  const connection = await getProviderConnection(input.orgId, input.connectionId);
  const linked = await link(input.orgId, {
    sequenceId: input.sequenceId,
    connectionId: connection.connectionId,
    provider: connection.provider,
    externalId: input.externalId,
  });
  return {
    campaignId: linked.campaignId,
    sequenceId: linked.sequenceId,
    connectionId: connection.connectionId,
    provider: connection.provider,
    externalId: linked.externalId,
  };
}
