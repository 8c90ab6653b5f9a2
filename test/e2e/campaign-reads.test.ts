import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { ASSIGNMENT_STATUSES } from '#schemas/resources.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import {
  expectedAccounts,
  expectedCampaigns,
  expectedContacts,
  expectedMessages,
  expectedOverview,
  type Model,
  modelOf,
} from '../support/expected.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * The campaign reads and the analytics overview over HTTP against the local
 * stack, with imported data whose expected answers come from an independent
 * model of the document (test/support/expected.ts).
 */

let stack: LocalStack;
let apiKey: string;
let otherKey: string;
let model: Model;

/** The small fixture plus enough assignments and messages in campaign 101 to page through. */
function readsDocument() {
  const base = smallDocument();
  const contacts = [...(base.contacts as object[])];
  const assignments = [...(base.assignments as object[])];
  const messages = [...(base.messages as object[])];
  const statuses = ASSIGNMENT_STATUSES;
  for (let index = 0; index < 40; index++) {
    const contactId = 1000 + index;
    contacts.push({
      id: contactId,
      email: `person${index}@example${index % 5}.com`,
      first_name: `P${index}`,
    });
    assignments.push({
      id: 2000 + index,
      campaign_id: 101,
      sequence_id: 201,
      contact_id: contactId,
      status: statuses[index % statuses.length],
      // Several share a creation time, so ties order by id.
      created_at: new Date(Date.UTC(2026, 4, 1 + Math.floor(index / 3))).toISOString(),
      completed_at: statuses[index % statuses.length] === 'completed' ? '2026-05-20T00:00:00.000Z' : null,
    });
    if (index % 7 !== 0) {
      messages.push({
        id: 3000 + index,
        assignment_id: 2000 + index,
        type: 'sent',
        step_type: 'email',
        step_index: 0,
        variant_index: index % 2,
        subject: `Subject ${index}`,
        body: `<p>Body ${index}</p>`,
        open_count: index % 3,
        sender_email: 'rep@seller.com',
        created_at: new Date(Date.UTC(2026, 4, 2 + Math.floor(index / 4))).toISOString(),
      });
    }
  }
  return { ...base, contacts, assignments, messages };
}

beforeAll(async () => {
  stack = await startTestStack();
  const document = readsDocument();
  model = modelOf(document);
  const organization = await createOrganization('Reads Inc');
  ({ apiKey } = await createApiKey(organization.orgId));
  await importFor(organization.orgId, document);
  const other = await createOrganization('Other Inc');
  ({ apiKey: otherKey } = await createApiKey(other.orgId));
});
afterAll(() => stack.stop());

/** A response body: a resource, a page or an error. */
interface Body {
  message?: string;
  data?: unknown[];
  [field: string]: unknown;
}

function get(path: string, key = apiKey) {
  return apiClient(stack, key).get<Body>(path);
}

describe('GET /public/v1/campaigns', () => {
  it('lists every campaign with every summary field, by id', async () => {
    const response = await get('/campaigns');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      campaigns: expectedCampaigns(model).map(({ contacts: _contacts, ...summary }) => summary),
    });
  });

  it('lists nothing for an organization without campaigns', async () => {
    expect(await get('/campaigns', otherKey)).toEqual({ status: 200, body: { campaigns: [] } });
  });
});

describe('GET /public/v1/campaigns/{id}', () => {
  it('returns the detail with status counts for each campaign', async () => {
    for (const expected of expectedCampaigns(model)) {
      expect(await get(`/campaigns/${expected.id}`)).toEqual({ status: 200, body: expected });
    }
  });

  it('aggregates providers across sequences: null when they differ, the provider when shared', async () => {
    expect((await get('/campaigns/101')).body).toMatchObject({
      provider: null,
      providers: ['heyreach', 'smartlead'],
    });
    expect((await get('/campaigns/102')).body).toMatchObject({
      provider: 'instantly',
      providers: ['instantly'],
    });
  });

  it.each([['0'], ['-1'], ['abc'], ['1.5'], ['1e3'], ['9007199254740992'], ['%20']])(
    'answers 400 for the invalid id %s',
    async (id) => {
      const response = await get(`/campaigns/${id}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/'id'/);
    },
  );

  it('answers 404 for an unknown campaign and for another organization’s campaign', async () => {
    expect(await get('/campaigns/999999')).toMatchObject({
      status: 404,
      body: { message: 'Campaign 999999 not found' },
    });
    expect((await get('/campaigns/101', otherKey)).status).toBe(404);
  });
});

describe('GET /public/v1/campaigns/{id}/accounts', () => {
  it('lists qualified accounts highest score first with their campaign score and signals, excluded ones left out', async () => {
    for (const campaignId of [101, 102]) {
      const response = await get(`/campaigns/${campaignId}/accounts`);
      expect(response).toEqual({
        status: 200,
        body: { accounts: expectedAccounts(model, campaignId, ['initech.com']) },
      });
    }
  });

  it('pages with from and take', async () => {
    const all = expectedAccounts(model, 101, ['initech.com']);
    expect((await get('/campaigns/101/accounts?from=1&take=1')).body).toEqual({ accounts: all.slice(1, 2) });
    expect((await get('/campaigns/101/accounts?from=50')).body).toEqual({ accounts: [] });
  });

  it.each([
    ['from=-1', 'from'],
    ['from=x', 'from'],
    ['take=0', 'take'],
    ['take=101', 'take'],
    ['take=2.5', 'take'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const response = await get(`/campaigns/101/accounts?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(`'${name}'`);
  });

  it('answers 400 for an invalid campaign id and 404 for another organization’s campaign', async () => {
    expect((await get('/campaigns/abc/accounts')).status).toBe(400);
    expect((await get('/campaigns/101/accounts', otherKey)).status).toBe(404);
  });
});

describe('GET /public/v1/campaigns/{id}/contacts', () => {
  it('returns the first page newest first with the defaults skip 0 and take 25', async () => {
    const all = expectedContacts(model, 101);
    expect(await get('/campaigns/101/contacts')).toEqual({
      status: 200,
      body: { data: all.slice(0, 25), total: all.length, skip: 0, take: 25 },
    });
  });

  it('walks every page with skip and take', async () => {
    const all = expectedContacts(model, 101);
    const seen: unknown[] = [];
    for (let skip = 0; skip < all.length; skip += 7) {
      const page = await get(`/campaigns/101/contacts?skip=${skip}&take=7`);
      expect(page.body).toMatchObject({ total: all.length, skip, take: 7 });
      seen.push(...(page.body.data ?? []));
    }
    expect(seen).toEqual(all);
  });

  it.each([
    ['scheduled'],
    ['in-progress'],
    ['completed'],
    ['replied'],
    ['bounced'],
    ['unsubscribed'],
  ] as const)('filters by status %s with a total of that status', async (status) => {
    const expected = expectedContacts(model, 101, status);
    expect((await get(`/campaigns/101/contacts?status=${status}&take=100`)).body).toEqual({
      data: expected,
      total: expected.length,
      skip: 0,
      take: 100,
    });
  });

  it('returns an empty page past the end', async () => {
    const total = expectedContacts(model, 101).length;
    expect((await get(`/campaigns/101/contacts?skip=${total}`)).body).toEqual({
      data: [],
      total,
      skip: total,
      take: 25,
    });
  });

  it.each([
    ['status=pending-approval', 'status'],
    ['status=SCHEDULED', 'status'],
    ['status=', 'status'],
    ['skip=-1', 'skip'],
    ['take=101', 'take'],
    ['take=0', 'take'],
    ['take=abc', 'take'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const response = await get(`/campaigns/101/contacts?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(`'${name}'`);
  });

  it('answers 400 for an invalid campaign id and 404 for unknown or foreign campaigns', async () => {
    expect((await get('/campaigns/0/contacts')).status).toBe(400);
    expect((await get('/campaigns/999999/contacts')).status).toBe(404);
    expect((await get('/campaigns/101/contacts', otherKey)).status).toBe(404);
  });
});

describe('GET /public/v1/campaigns/{id}/messages', () => {
  it('returns the history newest first across sequences in the contacts envelope', async () => {
    const all = expectedMessages(model, 101);
    expect(await get('/campaigns/101/messages?take=100')).toEqual({
      status: 200,
      body: { data: all, total: all.length, skip: 0, take: 100 },
    });
    expect((await get('/campaigns/101/messages')).body).toMatchObject({
      take: 25,
      skip: 0,
      total: all.length,
    });
  });

  it('pages with skip and take', async () => {
    const all = expectedMessages(model, 101);
    expect((await get('/campaigns/101/messages?skip=3&take=5')).body.data).toEqual(all.slice(3, 8));
  });

  it('answers 400 for bad paging and an invalid id, 404 for unknown or foreign campaigns', async () => {
    expect((await get('/campaigns/101/messages?take=101')).status).toBe(400);
    expect((await get('/campaigns/101/messages?skip=-2')).status).toBe(400);
    expect((await get('/campaigns/x/messages')).status).toBe(400);
    expect((await get('/campaigns/999999/messages')).status).toBe(404);
    expect((await get('/campaigns/102/messages', otherKey)).status).toBe(404);
  });
});

describe('GET /public/v1/analytics/overview', () => {
  it('returns the organization’s aggregate counts', async () => {
    expect(await get('/analytics/overview')).toEqual({ status: 200, body: expectedOverview(model) });
  });

  it('returns zeros for an organization without data', async () => {
    expect((await get('/analytics/overview', otherKey)).body).toEqual({
      total_campaigns: 0,
      total_contacts_sent: 0,
      total_contacts_opened: 0,
      total_contacts_replied: 0,
      total_contacts_scheduled: 0,
      total_bounced: 0,
      total_unsubscribed: 0,
    });
  });
});

describe('Link headers (RFC 8288) on the pages of a list', () => {
  const linksOf = async (path: string) => {
    const response = await fetch(`${stack.apiUrl}/public/v1${path}`, { headers: { 'x-api-key': apiKey } });
    expect(response.status).toBe(200);
    return response.headers.get('link');
  };

  it('links the next and previous pages with skip and take, keeping the other parameters', async () => {
    const link = await linksOf('/campaigns/101/contacts?skip=7&take=7&status=scheduled');
    const total = expectedContacts(model, 101, 'scheduled').length;
    const next = `<${stack.apiUrl}/public/v1/campaigns/101/contacts?status=scheduled&skip=14&take=7>; rel="next"`;
    const prev = `<${stack.apiUrl}/public/v1/campaigns/101/contacts?status=scheduled&skip=0&take=7>; rel="prev"`;
    expect(link).toBe(total > 14 ? `${next}, ${prev}` : prev);
    expect(await linksOf('/campaigns/101/contacts?take=100')).toBeNull();
  });

  it('links the pages of from and take, the next one while a page is full', async () => {
    expect(await linksOf('/campaigns/101/accounts?from=1&take=1')).toBe(
      `<${stack.apiUrl}/public/v1/campaigns/101/accounts?from=2&take=1>; rel="next", <${stack.apiUrl}/public/v1/campaigns/101/accounts?from=0&take=1>; rel="prev"`,
    );
  });
});
