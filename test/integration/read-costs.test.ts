import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '#domain/organizations.ts';
import { ASSIGNMENT_STATUSES } from '#schemas/resources.ts';
import { handler as getAnalyticsOverview } from '../../functions/get-analytics-overview/handler.ts';
import { handler as getCampaign } from '../../functions/get-campaign/handler.ts';
import { handler as listCampaignAccounts } from '../../functions/list-campaign-accounts/handler.ts';
import { handler as listCampaignContacts } from '../../functions/list-campaign-contacts/handler.ts';
import { handler as listCampaignMessages } from '../../functions/list-campaign-messages/handler.ts';
import { handler as listCampaigns } from '../../functions/list-campaigns/handler.ts';
import { importFor } from '../support/import.ts';
import { invoke } from '../support/invoke.ts';
import { countRequests, sentTogether } from '../support/request-counter.ts';

/**
 * The read endpoints answer with a fixed number of DynamoDB requests however
 * many assignments and messages a campaign has: aggregates come from
 * counters kept at write time, pages from an index read of `skip + take`.
 */

// A thousand assignments: counting or skipping them item by item would show in the request counts.
const ASSIGNMENTS = 1000;
let orgId: number;

beforeAll(async () => {
  ({ orgId } = await createOrganization('Big Campaign Inc'));
  const statuses = ASSIGNMENT_STATUSES;
  const document = {
    campaigns: [
      {
        id: 7001,
        name: 'Big',
        signals: ['hiring'],
        sequences: [
          {
            id: 7101,
            provider: 'lemlist',
            channel: 'email',
            steps: [{ type: 'email', variants: [{ body: 'Hi' }] }],
          },
        ],
      },
    ],
    accounts: Array.from({ length: 150 }, (_, index) => ({
      id: 70_000 + index,
      domain: `big${index}.example.com`,
      campaigns: [{ campaign_id: 7001, score: (index * 7) % 100, signals: [] }],
    })),
    contacts: Array.from({ length: ASSIGNMENTS }, (_, index) => ({
      id: 700_000 + index,
      email: `c${index}@big.example.com`,
    })),
    assignments: Array.from({ length: ASSIGNMENTS }, (_, index) => ({
      id: 800_000 + index,
      campaign_id: 7001,
      sequence_id: 7101,
      contact_id: 700_000 + index,
      status: statuses[index % statuses.length],
      created_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
    })),
    // Messages for a tenth of the assignments: enough to page through, cheap to import.
    messages: Array.from({ length: ASSIGNMENTS / 10 }, (_, index) => ({
      id: 900_000 + index,
      assignment_id: 800_000 + index,
      type: 'sent',
      step_type: 'email',
      body: 'Hello',
      open_count: index % 2,
      created_at: new Date(Date.UTC(2026, 1, 1, 0, index)).toISOString(),
    })),
  };
  await importFor(orgId, document);
}, 300_000);

describe('DynamoDB requests per read endpoint on a campaign with a thousand assignments', () => {
  it.each([
    ['GET /campaigns', listCampaigns, {}, 1],
    ['GET /campaigns/{id}', getCampaign, { path: { id: '7001' } }, 1],
    ['GET /campaigns/{id}/accounts', listCampaignAccounts, { path: { id: '7001' } }, 3],
    [
      'GET /campaigns/{id}/accounts?take=100',
      listCampaignAccounts,
      { path: { id: '7001' }, query: { take: '100' } },
      3,
    ],
    ['GET /campaigns/{id}/contacts', listCampaignContacts, { path: { id: '7001' } }, 2],
    [
      'GET /campaigns/{id}/contacts?status=replied',
      listCampaignContacts,
      { path: { id: '7001' }, query: { status: 'replied' } },
      2,
    ],
    ['GET /campaigns/{id}/messages', listCampaignMessages, { path: { id: '7001' } }, 2],
    ['GET /analytics/overview', getAnalyticsOverview, {}, 1],
  ] as const)('%s makes %#: a fixed number of requests', async (_name, handler, request, expected) => {
    const { result, count } = await countRequests(() => invoke(handler, { orgId, ...request }));
    expect(result.status).toBe(200);
    expect(count).toBe(expected);
  });

  it('reads the totals from counters: the contact total is every assignment without counting items', async () => {
    const { result, count } = await countRequests(() =>
      invoke(listCampaignContacts, { orgId, path: { id: '7001' } }),
    );
    expect(result.body.total).toBe(ASSIGNMENTS);
    expect(count).toBe(2);
  });

  it('reads a deep page with a bounded number of index pages', async () => {
    const { result, count } = await countRequests(() =>
      invoke(listCampaignContacts, { orgId, path: { id: '7001' }, query: { skip: '900', take: '100' } }),
    );
    expect(result.body.data).toHaveLength(100);
    expect(count).toBeLessThanOrEqual(4);
  });

  it.each([
    ['contacts', listCampaignContacts],
    ['messages', listCampaignMessages],
  ] as const)(
    'GET /campaigns/{id}/%s reads the campaign and the page in one round trip',
    async (_name, handler) => {
      const { result, calls } = await countRequests(() => invoke(handler, { orgId, path: { id: '7001' } }));
      expect(result.status).toBe(200);
      expect(calls).toHaveLength(2);
      expect(sentTogether(calls[0]!, calls[1]!)).toBe(true);
    },
  );

  it('lists accounts in two round trips: the campaign and its ranking together, then the accounts without their signals', async () => {
    const { result, calls } = await countRequests(() =>
      invoke(listCampaignAccounts, { orgId, path: { id: '7001' }, query: { take: '5' } }),
    );
    expect(result.status).toBe(200);
    expect(result.body.accounts).toHaveLength(5);
    const ranking = calls.find((call) => call.input.IndexName === 'gsi1');
    const campaign = calls.find((call) => call.operation === 'Query' && call !== ranking);
    const accounts = calls.find((call) => call.operation === 'BatchGetItem');
    expect(calls).toHaveLength(3);
    expect(sentTogether(campaign!, ranking!)).toBe(true);
    expect(accounts!.sent).toBeGreaterThan(ranking!.answered!);
    // A list shows the campaign's signals of an account (its qualification's), so the account's own are not read.
    const [read] = Object.values(accounts!.input.RequestItems as Record<string, Record<string, unknown>>);
    expect(Object.values(read!.ExpressionAttributeNames as Record<string, string>).sort()).toEqual([
      'accountId',
      'domain',
      'linkedinUrl',
      'name',
      'website',
    ]);
  });
});
