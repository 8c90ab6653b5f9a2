import * as z from 'zod/mini';
import { CAMPAIGN_COUNTERS, SHARDED_COUNTERS } from '#definitions/item-fields.ts';
import { provider } from '#schemas/import.ts';
import { channel } from '#schemas/resources.ts';
import { counterFields } from './counter-fields.ts';

// The item schemas of campaigns.ts: what its store reads (and checks) items with.

/** A sequence as the campaign keeps it: what reads use of it (its steps are only counted). */
export const storedSequence = z.object({
  id: z.number(),
  provider,
  channel,
  steps: z.array(z.unknown()),
  /** The provider's campaign id, which its webhooks name (shared/store/sequence-links.ts); the provider link answers it as `provider_campaign_id`. */
  external_id: z._default(z.nullable(z.string()), null),
  /** The provider connection the campaign runs on, when known. */
  connection_id: z._default(z.nullable(z.number()), null),
});

export type StoredSequence = z.infer<typeof storedSequence>;

/** A campaign as stored; counters never written are 0. */
export const campaignItem = z.object({
  orgId: z.number(),
  campaignId: z.number(),
  name: z.string(),
  signals: z._default(z.array(z.string()), []),
  createdAt: z._default(z.nullable(z.string()), null),
  sequences: z._default(z.array(storedSequence), []),
  ...counterFields(['accountsCount', 'messagesCount']),
  ...counterFields(CAMPAIGN_COUNTERS),
});

export type CampaignRecord = z.infer<typeof campaignItem>;

/** A counter shard as stored: its counters only (`keys.campaignShard`). */
export const campaignShardItem = z.object(counterFields(SHARDED_COUNTERS));
