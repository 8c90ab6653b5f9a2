import type { SequenceLink } from '#domain/sequence-links.ts';
import type { SequenceProviderLink } from '#schemas/provider-campaigns.ts';

/** A sequence's link as the API, the CLI's `--json` and the dashboard show it. */
export const toSequenceProviderLink = (link: SequenceLink): SequenceProviderLink => ({
  sequence_id: link.sequenceId,
  campaign_id: link.campaignId,
  connection_id: link.connectionId,
  provider: link.provider,
  provider_campaign_id: link.externalId,
});
