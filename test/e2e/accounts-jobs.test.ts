import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { upsertJobs } from '#domain/jobs.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { JobInput } from '#schemas/import.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';

/** Account lookup and exclusion, and the job search, over HTTP against the local stack. */

interface Body {
  message?: string;
  [field: string]: unknown;
}

let stack: LocalStack;
let apiKey: string;
let otherKey: string;
let orgId: number;

beforeAll(async () => {
  stack = await startTestStack();
  ({ orgId } = await createOrganization('Accounts Inc'));
  ({ apiKey } = await createApiKey(orgId));
  const document = smallDocument();
  (document.accounts as object[]).push({
    id: 304,
    name: 'Bücher',
    domain: 'BÜCHER.de',
    campaigns: [{ campaign_id: 102, score: 0.4, signals: [] }],
  });
  await importFor(orgId, document);
  const other = await createOrganization('Other Inc');
  ({ apiKey: otherKey } = await createApiKey(other.orgId));
});
afterAll(() => stack.stop());

function call(method: string, path: string, options: { body?: unknown; key?: string } = {}) {
  return apiClient(stack, options.key ?? apiKey).call<Body>(method, path, options.body);
}

const ACME = {
  id: 301,
  name: 'Acme',
  domain: 'acme.com',
  'linkedin-url': 'https://linkedin.com/company/acme',
  score: 0.9,
  signals: [
    { name: 'hiring', updated: '2026-04-01T00:00:00.000Z', freshness: 'fresh', score: 0.8 },
    { name: 'expansion', updated: null, freshness: null, score: 0.3 },
  ],
};

describe('GET /public/v1/accounts', () => {
  it.each([
    ['acme.com'],
    ['HTTPS://WWW.Acme.com/about?x=1'],
    ['acme.com.'],
    ['Acme.COM:8443'],
    ['http://user@www.acme.com/path#x'],
  ])('finds the account by the domain variant %s', async (domain) => {
    expect(await call('GET', `/accounts?domain=${encodeURIComponent(domain)}`)).toEqual({
      status: 200,
      body: ACME,
    });
  });

  it('stores and finds internationalized domains in their ASCII form', async () => {
    for (const domain of ['bücher.de', 'WWW.BÜCHER.DE', 'xn--bcher-kva.de']) {
      const response = await call('GET', `/accounts?domain=${encodeURIComponent(domain)}`);
      expect(response).toMatchObject({ status: 200, body: { id: 304, domain: 'xn--bcher-kva.de' } });
    }
  });

  it('finds the account by id, and by domain and id together when they agree', async () => {
    expect(await call('GET', '/accounts?id=301')).toEqual({ status: 200, body: ACME });
    expect(await call('GET', '/accounts?id=301&domain=acme.com')).toEqual({ status: 200, body: ACME });
  });

  it('answers 404 when domain and id name different accounts', async () => {
    expect((await call('GET', '/accounts?id=302&domain=acme.com')).status).toBe(404);
  });

  it('keeps only the signals named in the campaign given as icpId', async () => {
    expect((await call('GET', '/accounts?id=301&icpId=101')).body.signals).toEqual([ACME.signals[0]]);
    expect((await call('GET', '/accounts?domain=acme.com&icpId=102')).body.signals).toEqual([
      ACME.signals[1],
    ]);
  });

  it('answers 404 for an unknown or another organization’s icpId, and 400 for a malformed one', async () => {
    expect((await call('GET', '/accounts?id=301&icpId=999999')).status).toBe(404);
    const foreign = await createOrganization('Foreign Campaigns');
    await importFor(foreign.orgId, {
      campaigns: [
        {
          id: 777,
          name: 'Theirs',
          sequences: [{ id: 778, provider: 'lemlist', channel: 'email', steps: [] }],
        },
      ],
    });
    expect((await call('GET', '/accounts?id=301&icpId=777')).status).toBe(404);
    for (const icpId of ['abc', '0', '-3', '1.5']) {
      const response = await call('GET', `/accounts?id=301&icpId=${icpId}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain("'icpId'");
    }
  });

  it('answers 400 when neither domain nor id is given', async () => {
    const response = await call('GET', '/accounts');
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('domain or id is required');
    expect((await call('GET', '/accounts?icpId=101')).status).toBe(400);
  });

  it('answers 400 for an unusable domain or a malformed id', async () => {
    expect((await call('GET', '/accounts?domain=not_a_domain')).status).toBe(400);
    expect((await call('GET', '/accounts?id=abc')).status).toBe(400);
  });

  it('answers 404 for an unknown account and for another organization’s account', async () => {
    expect(await call('GET', '/accounts?domain=nobody.example')).toMatchObject({
      status: 404,
      body: { message: 'Account with domain nobody.example not found' },
    });
    expect((await call('GET', '/accounts?id=999999')).status).toBe(404);
    expect((await call('GET', '/accounts?id=301', { key: otherKey })).status).toBe(404);
    expect((await call('GET', '/accounts?domain=acme.com', { key: otherKey })).status).toBe(404);
  });
});

describe('POST /public/v1/accounts/exclude', () => {
  it('answers 400 without company_url or with no usable domain in it', async () => {
    for (const body of [
      {},
      { company_name: 'Globex' },
      { company_url: '' },
      { company_url: 'not a url' },
      { company_url: 42 },
    ]) {
      const response = await call('POST', '/accounts/exclude', { body });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain("'company_url'");
    }
    expect((await call('POST', '/accounts/exclude', { body: [] })).status).toBe(400);
  });

  it('excludes the account from every campaign’s accounts list, idempotently', async () => {
    const before101 = (await call('GET', '/campaigns/101/accounts')).body.accounts as { id: number }[];
    const before102 = (await call('GET', '/campaigns/102/accounts')).body.accounts as { id: number }[];
    expect(before101.map((account) => account.id)).toContain(302);
    expect(before102.map((account) => account.id)).toContain(302);
    const body = {
      company_url: 'https://www.GLOBEX.io/careers',
      company_name: 'Globex',
      company_linkedin_url: 'https://linkedin.com/company/globex',
    };
    expect(await call('POST', '/accounts/exclude', { body })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await call('POST', '/accounts/exclude', { body })).toEqual({
      status: 200,
      body: { success: true },
    });
    const after101 = (await call('GET', '/campaigns/101/accounts')).body.accounts as { id: number }[];
    const after102 = (await call('GET', '/campaigns/102/accounts')).body.accounts as { id: number }[];
    expect(after101.map((account) => account.id)).toEqual(
      before101.map((account) => account.id).filter((id) => id !== 302),
    );
    expect(after102.map((account) => account.id)).toEqual(
      before102.map((account) => account.id).filter((id) => id !== 302),
    );
  });

  it('accepts a domain that no account has yet', async () => {
    expect(
      await call('POST', '/accounts/exclude', { body: { company_url: 'future-customer.example' } }),
    ).toEqual({
      status: 200,
      body: { success: true },
    });
  });
});

describe('GET /public/v1/jobs/{domain}', () => {
  const DOMAIN = 'jobs.example.com';
  const job = (index: number, firstSeen: Date, prefix = 'job'): JobInput & { domain: string } => ({
    id: `${prefix}-${index}`,
    domain: DOMAIN,
    title: `Role ${index}`,
    url: `https://jobs.example.com/${index}`,
    first_seen_at: firstSeen.toISOString(),
    last_seen_at: new Date(firstSeen.getTime() + 86_400_000).toISOString(),
    status: index % 5 === 0 ? 'closed' : 'open',
    location: index % 2 === 0 ? 'Remote' : 'Berlin',
    description: `Description ${index}`,
  });
  // 1,000 jobs over about three months, several sharing a first_seen_at.
  const initial = Array.from({ length: 1000 }, (_, index) =>
    job(index, new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 3) * 3_600_000 * 6)),
  );

  beforeAll(async () => {
    await upsertJobs(orgId, initial);
  });

  it('walks every job exactly once, newest first, while jobs arrive between pages', async () => {
    const seen: { id: string; first_seen_at: string }[] = [];
    let cursor: number | undefined;
    let pages = 0;
    const inserted: string[] = [];
    do {
      const response = await call('GET', `/jobs/${DOMAIN}?take=97${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.domain).toBe(DOMAIN);
      seen.push(...(response.body.jobs as { id: string; first_seen_at: string }[]));
      cursor = response.body.next as number;
      pages += 1;
      // Between pages: one job newer than anything (before the walk's position) and one older than everything.
      const newer = job(pages, new Date(Date.UTC(2027, 0, 1, pages)), 'newer');
      const older = job(pages, new Date(Date.UTC(2025, 0, 1, pages)), 'older');
      await upsertJobs(orgId, [newer, older]);
      inserted.push(older.id);
    } while (cursor !== 0);
    const ids = seen.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const original of initial) expect(ids).toContain(original.id);
    // Jobs newer than the walk's position are not in its remaining pages; older ones are, once each.
    expect(ids.filter((id) => id.startsWith('newer-'))).toEqual([]);
    // (the last one arrived after the final page)
    expect(ids.filter((id) => id.startsWith('older-')).sort()).toEqual(inserted.slice(0, -1).sort());
    const times = seen.map((entry) => entry.first_seen_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(pages).toBeGreaterThan(10);
  });

  it('says next 0 on the last page, and a full page with more to come names a cursor', async () => {
    const first = await call('GET', `/jobs/${DOMAIN}?take=500`);
    expect(first.body.next).toBeGreaterThan(0);
    expect(first.body.jobs).toHaveLength(500);
    const tail = await call('GET', `/jobs/${DOMAIN}?since=2026-03-20T00:00:00Z`);
    expect((tail.body.jobs as unknown[]).length).toBeLessThan(100);
    expect(tail.body.next).toBe(0);
  });

  it('returns 100 jobs by default with every field', async () => {
    const response = await call('GET', `/jobs/${DOMAIN}`);
    const jobs = response.body.jobs as Record<string, string>[];
    expect(jobs).toHaveLength(100);
    expect(Object.keys(jobs[0]!).sort()).toEqual(
      [
        'description',
        'domain',
        'first_seen_at',
        'id',
        'last_seen_at',
        'location',
        'status',
        'title',
        'url',
      ].sort(),
    );
    for (const entry of jobs) expect(['open', 'closed']).toContain(entry.status);
  });

  it('keeps only jobs first seen after since', async () => {
    const since = '2026-02-15T00:00:00.000Z';
    const expected = initial.filter((entry) => entry.first_seen_at > since).length;
    const response = await call(
      'GET',
      `/jobs/${DOMAIN}?since=${encodeURIComponent('2026-02-15T01:00:00+01:00')}&take=500`,
    );
    const jobs = response.body.jobs as { first_seen_at: string; id: string }[];
    const fromInitial = jobs.filter((entry) => entry.id.startsWith('job-'));
    expect(fromInitial).toHaveLength(expected);
    for (const entry of jobs) expect(entry.first_seen_at > since).toBe(true);
  });

  it('normalizes the domain in the path', async () => {
    const response = await call('GET', `/jobs/${encodeURIComponent('WWW.Jobs.Example.com')}?take=1`);
    expect(response.body).toMatchObject({ domain: DOMAIN });
    expect(response.body.jobs).toHaveLength(1);
  });

  it.each([
    ['?since=yesterday', 'since'],
    ['?since=2026-13-01T00:00:00Z', 'since'],
    ['?cursor=abc', 'cursor'],
    ['?cursor=-1', 'cursor'],
    ['?cursor=999999999', 'cursor'],
    ['?take=0', 'take'],
    ['?take=501', 'take'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const response = await call('GET', `/jobs/${DOMAIN}${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(`'${name}'`);
  });

  it('answers 400 for a path without a usable domain and an empty list for a domain without jobs', async () => {
    expect((await call('GET', '/jobs/localhost')).status).toBe(400);
    expect(await call('GET', '/jobs/quiet.example')).toEqual({
      status: 200,
      body: { domain: 'quiet.example', next: 0, jobs: [] },
    });
  });

  it('shows another organization none of these jobs', async () => {
    expect((await call('GET', `/jobs/${DOMAIN}`, { key: otherKey })).body).toEqual({
      domain: DOMAIN,
      next: 0,
      jobs: [],
    });
  });
});
