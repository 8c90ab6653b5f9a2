import * as z from 'zod/mini';
import { signal } from '#schemas/resources.ts';
import { qualificationOf } from '#store/item-transforms.ts';

// The item schemas of accounts.ts: what its store reads (and checks) items with.

export const accountItem = z.object({
  accountId: z.number(),
  name: z.optional(z.string()),
  domain: z.string(),
  website: z.optional(z.string()),
  linkedinUrl: z.optional(z.string()),
  score: z._default(z.number(), 0),
  signals: z._default(z.array(signal), []),
  excluded: z._default(z.boolean(), false),
});

export type AccountRecord = z.infer<typeof accountItem>;

/** What a campaign's account list shows of an account: its score and signals there are the qualification's. */
export const listedAccountItem = z.pick(accountItem, {
  accountId: true,
  name: true,
  domain: true,
  website: true,
  linkedinUrl: true,
});

export type ListedAccountRecord = z.infer<typeof listedAccountItem>;

/** An account's qualification into a campaign; `listed` when it is in the campaign's ranking. */
export const qualificationItem = z.pipe(
  z.object({
    campaignId: z.number(),
    accountId: z.number(),
    score: z._default(z.number(), 0),
    signals: z._default(z.array(signal), []),
    gsi1pk: z.optional(z.string()),
    /** Newly listed and not yet announced in a New Opportunities event (shared/domain/webhook-events.ts). */
    newOpportunity: z.optional(z.boolean()),
  }),
  z.transform(qualificationOf),
);

export type QualificationRecord = z.output<typeof qualificationItem>;

export const domainItem = z.object({ accountId: z.number() });
