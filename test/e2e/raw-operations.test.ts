import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { getAssignment } from '#domain/assignments.ts';
import { getContact } from '#domain/contacts.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { countRequests } from '../support/request-counter.ts';
import { settle } from '../support/settle.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The raw push and its dry run over HTTP against the local stack: every
 * reason, every bypass, skipIneligible both ways, upserts, takeover,
 * validation, idempotency, concurrency and request counts.
 */

interface Body {
  message?: string;
  [field: string]: unknown;
}

let stack: LocalStack;
/** Only for `settle`'s barrier. */
let receiver: WebhookReceiver;
let apiKey: string;
let otherKey: string;
let orgId: number;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const email = (sequence_id: number, status: string, extra: object = {}) => ({
  sequence_id,
  status,
  ...extra,
});

/** Contacts in every situation the rules distinguish, against target sequence 201 (email) of campaign 101. */
const SITUATIONS: Record<
  string,
  { blocked?: boolean; company_domain?: string; assignments: ReturnType<typeof email>[] }
> = {
  'fresh@ok.com': { assignments: [] },
  'same@ok.com': { assignments: [email(201, 'in-progress')] },
  'samepending@ok.com': { assignments: [email(201, 'pending-approval')] },
  'samerecent@ok.com': { assignments: [email(201, 'completed', { completed_at: daysAgo(10) })] },
  'sameold@ok.com': { assignments: [email(201, 'completed', { completed_at: daysAgo(200) })] },
  'other@ok.com': { assignments: [email(203, 'scheduled')] },
  'otherrecent@ok.com': { assignments: [email(203, 'completed', { completed_at: daysAgo(5) })] },
  'otherlinkedin@ok.com': { assignments: [email(202, 'in-progress')] },
  'pending@ok.com': { assignments: [email(203, 'pending-approval'), email(204, 'pending-approval')] },
  'replied@ok.com': { assignments: [email(203, 'replied')] },
  'bounced@ok.com': { assignments: [email(203, 'bounced')] },
  'unsub@ok.com': { assignments: [email(203, 'unsubscribed')] },
  'blocked@ok.com': { blocked: true, assignments: [] },
  'someone@excluded.com': { assignments: [] },
  'listed@ok.com': { assignments: [] },
  'worker@ok.com': { company_domain: 'excludedco.com', assignments: [] },
  'combo@excluded.com': {
    assignments: [email(203, 'scheduled'), email(204, 'pending-approval'), email(205, 'replied')],
  },
};

const EXPECTED_REASONS: Record<string, string[]> = {
  'fresh@ok.com': [],
  'same@ok.com': ['cooldown_same_sequence'],
  'samepending@ok.com': ['cooldown_same_sequence'],
  'samerecent@ok.com': ['cooldown_same_sequence'],
  'sameold@ok.com': [],
  'other@ok.com': ['cooldown_other_sequences'],
  'otherrecent@ok.com': ['cooldown_other_sequences'],
  'otherlinkedin@ok.com': [],
  'pending@ok.com': ['unapproved'],
  'replied@ok.com': ['replied'],
  'bounced@ok.com': ['blocked'],
  'unsub@ok.com': ['blocked'],
  'blocked@ok.com': ['blocked'],
  'someone@excluded.com': ['globally_excluded'],
  'listed@ok.com': ['globally_excluded'],
  'worker@ok.com': ['globally_excluded'],
  'combo@excluded.com': ['cooldown_other_sequences', 'unapproved', 'replied', 'globally_excluded'],
};

function situationDocument(offset: number) {
  const contacts: object[] = [];
  const assignments: object[] = [];
  let assignmentId = offset + 500;
  const sequenceCampaign: Record<number, number> = { 201: 101, 202: 101, 203: 102, 204: 103, 205: 103 };
  Object.entries(SITUATIONS).forEach(([address, situation], index) => {
    const contactId = offset + index + 1;
    contacts.push({
      id: contactId,
      email: address,
      blocked: situation.blocked ?? false,
      company_domain: situation.company_domain ?? null,
    });
    for (const assignment of situation.assignments) {
      assignments.push({
        id: assignmentId++,
        campaign_id: sequenceCampaign[assignment.sequence_id],
        contact_id: contactId,
        created_at: daysAgo(300),
        ...assignment,
      });
    }
  });
  const steps = [{ type: 'email', variants: [{ body: 'Hi {{first_name}}' }] }];
  return {
    campaigns: [
      {
        id: 101,
        name: 'Target',
        sequences: [
          { id: 201, provider: 'smartlead', channel: 'email', steps },
          {
            id: 202,
            provider: 'heyreach',
            channel: 'linkedin',
            steps: [{ type: 'linkedin_connect', variants: [{ body: 'Hi' }] }],
          },
        ],
      },
      { id: 102, name: 'Other', sequences: [{ id: 203, provider: 'instantly', channel: 'email', steps }] },
      {
        id: 103,
        name: 'Third',
        sequences: [
          { id: 204, provider: 'lemlist', channel: 'email', steps },
          { id: 205, provider: 'lemlist', channel: 'email', steps },
        ],
      },
    ],
    contacts,
    assignments,
    exclusions: [{ domain: 'excluded.com' }, { email: 'LISTED@ok.com' }, { domain: 'excludedco.com' }],
  };
}

async function seedOrganization(name: string) {
  const organization = await createOrganization(name);
  const { apiKey: key } = await createApiKey(organization.orgId);
  await importFor(organization.orgId, situationDocument(0));
  return { orgId: organization.orgId, apiKey: key };
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  ({ orgId, apiKey } = await seedOrganization('Raw Inc'));
  const other = await createOrganization('Other Inc');
  ({ apiKey: otherKey } = await createApiKey(other.orgId));
}, 120_000);
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
});

function post(path: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  return apiClient(stack, options.key ?? apiKey).post<Body>(path, body, { headers: options.headers });
}

const check = (body: unknown, key?: string) =>
  post('/campaigns/101/raw/contacts/check-eligibility', body, { key });
const push = (body: unknown, headers?: Record<string, string>) =>
  post('/campaigns/101/raw/contacts', body, { headers });
const emails = Object.keys(SITUATIONS);

describe('POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility', () => {
  it('reports every reason alone and in combination, in input order, with a summary per reason', async () => {
    const response = await check({ emails });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual(
      emails.map((address) => ({
        email: address,
        eligible: EXPECTED_REASONS[address]!.length === 0,
        reasons: EXPECTED_REASONS[address],
      })),
    );
    const count = (reason: string) =>
      emails.filter((address) => EXPECTED_REASONS[address]!.includes(reason)).length;
    expect(response.body.summary).toEqual({
      total: emails.length,
      eligible: emails.filter((address) => EXPECTED_REASONS[address]!.length === 0).length,
      ineligible: emails.filter((address) => EXPECTED_REASONS[address]!.length > 0).length,
      cooldown_same_sequence: count('cooldown_same_sequence'),
      cooldown_other_sequences: count('cooldown_other_sequences'),
      unapproved: count('unapproved'),
      replied: count('replied'),
      blocked: count('blocked'),
      globally_excluded: count('globally_excluded'),
    });
  });

  it.each([
    ['bypassCooldownOtherSequences', 'cooldown_other_sequences'],
    ['bypassGlobalExcluded', 'globally_excluded'],
    ['takeoverUnapproved', 'unapproved'],
  ])('lifts only %s’s reason when it is on', async (flag, reason) => {
    const response = await check({ emails, [flag]: true });
    const results = response.body.results as { email: string; reasons: string[] }[];
    for (const result of results) {
      expect(result.reasons).toEqual(
        EXPECTED_REASONS[result.email]!.filter((candidate) => candidate !== reason),
      );
    }
  });

  it('compares emails case-insensitively and judges a repeated email once', async () => {
    const response = await check({ emails: ['SAME@ok.com', 'fresh@OK.com', 'same@ok.com'] });
    expect(response.body.results).toEqual([
      { email: 'same@ok.com', eligible: false, reasons: ['cooldown_same_sequence'] },
      { email: 'fresh@ok.com', eligible: true, reasons: [] },
    ]);
    expect((response.body.summary as { total: number }).total).toBe(2);
  });

  it('writes nothing, and needs at most 15 DynamoDB requests for 1,000 emails', async () => {
    const many = Array.from({ length: 1000 }, (_, index) =>
      index < emails.length ? emails[index]! : `new${index}@bulk${index % 50}.com`,
    );
    const { result, count, byCommand } = await countRequests(() => check({ emails: many }));
    expect(result.status).toBe(200);
    const handlerRequests = count - (byCommand.GetItem ?? 0) - (byCommand.UpdateItem ?? 0);
    expect(
      Object.keys(byCommand).filter(
        (command) => !['BatchGetItem', 'GetItem', 'UpdateItem'].includes(command),
      ),
    ).toEqual([]);
    expect(byCommand.UpdateItem ?? 0).toBeLessThanOrEqual(1); // the authorizer's last-used time, at most
    expect(handlerRequests).toBeLessThanOrEqual(15);
  });

  it('answers 400 for invalid emails, too many emails or a body without emails', async () => {
    expect((await check({ emails: ['not-an-email'] })).body.message).toContain("'emails[0]'");
    expect(
      (await check({ emails: Array.from({ length: 1001 }, (_, index) => `a${index}@x.com`) })).status,
    ).toBe(400);
    expect((await check({})).status).toBe(400);
    expect((await check('{"emails": [')).status).toBe(400);
  });

  it('answers 404 for another organization’s campaign and 400 for an invalid id', async () => {
    expect((await check({ emails: ['a@b.com'] }, otherKey)).status).toBe(404);
    expect((await post('/campaigns/abc/raw/contacts/check-eligibility', { emails: [] })).status).toBe(400);
  });
});

describe('POST /public/v1/campaigns/{id}/raw/contacts', () => {
  it('skips ineligible contacts with their reasons and creates the rest pending approval, in input order', async () => {
    const contacts = ['new1@fresh.com', 'same@ok.com', 'new2@fresh.com', 'replied@ok.com'].map(
      (address, index) => ({
        email: address,
        firstName: `F${index}`,
        companyDomain: 'fresh.com',
        variables: { opener: `Hello ${index}`, custom_1: 'x' },
      }),
    );
    const response = await push({ contacts });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      created: 2,
      updated: 0,
      skipped: 2,
      errors: [],
      skippedContacts: [
        { email: 'same@ok.com', reasons: ['cooldown_same_sequence'] },
        { email: 'replied@ok.com', reasons: ['replied'] },
      ],
    });
    const [first, second] = response.body.assignmentIds as number[];
    const assignment = await getAssignment(orgId, first!);
    expect(assignment).toMatchObject({ status: 'pending-approval', sequenceId: 201, approvedAt: null });
    expect(Object.fromEntries(assignment.variables)).toEqual({ opener: 'Hello 0', custom_1: 'x' });
    expect(assignment.contact).toMatchObject({
      email: 'new1@fresh.com',
      first_name: 'F0',
      company_domain: 'fresh.com',
    });
    expect((await getAssignment(orgId, second!)).contact.email).toBe('new2@fresh.com');
  });

  it('approves and schedules new assignments at once with triggerIntake', async () => {
    const before = (await apiClient(stack, apiKey).get('/campaigns/101')).body as {
      contacts: { scheduled: number };
    };
    const response = await push({ contacts: [{ email: 'intake@fresh.com' }], triggerIntake: true });
    const assignment = await getAssignment(orgId, (response.body.assignmentIds as number[])[0]!);
    expect(assignment.status).toBe('scheduled');
    expect(assignment.approvedAt).not.toBeNull();
    const after = (await apiClient(stack, apiKey).get('/campaigns/101')).body as {
      contacts: { scheduled: number };
    };
    expect(after.contacts.scheduled).toBe(before.contacts.scheduled + 1);
  });

  it('pushes everyone with skipIneligible false, updating an existing same-sequence assignment', async () => {
    const same = await getContact(orgId, { id: 0, email: 'samepending@ok.com' });
    const existingId = same!.sequenceAssignments['201']!;
    const response = await push({
      skipIneligible: false,
      contacts: [
        { email: 'samepending@ok.com', variables: { v: 'new' } },
        { email: 'bounced@ok.com', variables: { v: 'b' } },
      ],
    });
    expect(response.body).toMatchObject({ created: 1, updated: 1, skipped: 0, skippedContacts: [] });
    expect((response.body.assignmentIds as number[])[0]).toBe(existingId);
    expect(Object.fromEntries((await getAssignment(orgId, existingId)).variables)).toEqual({ v: 'new' });
    const again = await getContact(orgId, { id: 0, email: 'samepending@ok.com' });
    expect(Object.values(again!.sequenceAssignments).filter((id) => id === existingId)).toHaveLength(1);
  });

  it('updates a same-sequence assignment that completed outside the cooldown window', async () => {
    const response = await push({ contacts: [{ email: 'sameold@ok.com', variables: { again: 'yes' } }] });
    expect(response.body).toMatchObject({ created: 0, updated: 1, skipped: 0 });
  });

  it('withdraws the contact’s pending assignments in other sequences with takeoverUnapproved', async () => {
    const before = await getContact(orgId, { id: 0, email: 'pending@ok.com' });
    const pendingIds = Object.keys(before!.assignments).map(Number);
    const campaign102 = async () =>
      (await apiClient(stack, apiKey).get('/campaigns/102')).body as {
        contacts: { pending_approval: number };
      };
    const pendingBefore = (await campaign102()).contacts.pending_approval;
    const response = await push({ takeoverUnapproved: true, contacts: [{ email: 'pending@ok.com' }] });
    expect(response.body).toMatchObject({ created: 1, skipped: 0 });
    for (const id of pendingIds) await expect(getAssignment(orgId, id)).rejects.toThrow(/not found/);
    const after = await getContact(orgId, { id: 0, email: 'pending@ok.com' });
    expect(Object.keys(after!.assignments).map(Number)).toEqual(response.body.assignmentIds);
    expect((await campaign102()).contacts.pending_approval).toBe(pendingBefore - 1);
  });

  it('reports invalid contacts in errors while the others proceed', async () => {
    const response = await push({
      contacts: [
        { email: 'valid1@fresh.com' },
        { email: 'broken' },
        { firstName: 'no email' },
        { email: 'badvar@fresh.com', variables: { 'bad-name': 'x' } },
        {
          email: 'toomany@fresh.com',
          variables: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`v${index}`, 'x'])),
        },
        { email: 'toolong@fresh.com', variables: { big: 'x'.repeat(10 * 1024 + 1) } },
        { email: 'baddomain@fresh.com', companyDomain: 'nope' },
        'not an object',
        { email: 'valid2@fresh.com', variables: { ok: 'x'.repeat(10 * 1024) } },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ created: 2, skipped: 0 });
    const errors = response.body.errors as { index: number; email: string | null; message: string }[];
    expect(errors.map((error) => [error.index, error.email])).toEqual([
      [1, 'broken'],
      [2, null],
      [3, 'badvar@fresh.com'],
      [4, 'toomany@fresh.com'],
      [5, 'toolong@fresh.com'],
      [6, 'baddomain@fresh.com'],
      [7, null],
    ]);
    expect(errors[0]!.message).toContain("'email'");
    expect(errors[2]!.message).toContain('variables');
    expect(errors[5]!.message).toContain("'companyDomain'");
  });

  it('processes a repeated email once', async () => {
    const response = await push({ contacts: [{ email: 'twice@fresh.com' }, { email: 'TWICE@fresh.com' }] });
    expect(response.body).toMatchObject({ created: 1, updated: 0, skipped: 0 });
    expect(response.body.assignmentIds).toHaveLength(1);
  });

  it.each([
    ['a body that is not an object', '[1,2]'],
    ['a body without contacts', { triggerIntake: true }],
    ['contacts that are not an array', { contacts: 'x' }],
    [
      'more than 1,000 contacts',
      { contacts: Array.from({ length: 1001 }, (_, index) => ({ email: `m${index}@x.com` })) },
    ],
    ['a flag of the wrong type', { contacts: [], skipIneligible: 'yes' }],
    ['a sequence of another campaign', { contacts: [], sequenceId: 203 }],
    ['malformed JSON', '{"contacts": ['],
  ])('answers 400 for %s', async (_case, body) => {
    const response = await push(body);
    expect(response.status).toBe(400);
    expect(typeof response.body.message).toBe('string');
  });

  it('answers 404 for an unknown campaign and another organization’s', async () => {
    expect((await post('/campaigns/999999/raw/contacts', { contacts: [] })).status).toBe(404);
    expect((await post('/campaigns/101/raw/contacts', { contacts: [] }, { key: otherKey })).status).toBe(404);
  });

  it('targets the sequence named by sequenceId', async () => {
    const response = await push({ sequenceId: 202, contacts: [{ email: 'linkedin-target@fresh.com' }] });
    expect((await getAssignment(orgId, (response.body.assignmentIds as number[])[0]!)).sequenceId).toBe(202);
  });

  it('replays the first response for the same Idempotency-Key and body, and refuses another body with 422', async () => {
    const body = { contacts: [{ email: 'idem@fresh.com', variables: { a: '1' } }] };
    const headers = { 'Idempotency-Key': 'push-idem-1' };
    const first = await push(body, headers);
    const { result: second, byCommand } = await countRequests(() => push(body, headers));
    expect(second).toEqual(first);
    expect(byCommand.TransactWriteItems ?? 0).toBe(0);
    const conflict = await push({ contacts: [{ email: 'other-body@fresh.com' }] }, headers);
    expect(conflict.status).toBe(422);
    expect(conflict.body.message).toMatch(/Idempotency-Key/);
  });

  it('never gives a contact two assignments in one sequence under concurrent overlapping pushes', async () => {
    const shared = Array.from({ length: 30 }, (_, index) => ({ email: `race${index}@fresh.com` }));
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        push({ skipIneligible: index % 2 === 0, contacts: shared.slice(index * 3, index * 3 + 15) }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    for (const contact of shared) {
      const record = await getContact(orgId, { id: 0, email: contact.email });
      const inTarget = Object.values(record!.assignments).filter((entry) => entry.sequenceId === 201);
      expect(inTarget).toHaveLength(1);
    }
    const created = responses.reduce((total, response) => total + (response.body.created as number), 0);
    expect(created).toBe(shared.length);
  });

  it('makes the exclusion of an account’s domain count for the contacts of that company', async () => {
    const before = await check({ emails: ['ceo@soon-excluded.com'] });
    expect((before.body.results as { eligible: boolean }[])[0]!.eligible).toBe(true);
    expect((await post('/accounts/exclude', { company_url: 'https://soon-excluded.com' })).body).toEqual({
      success: true,
    });
    const after = await check({ emails: ['ceo@soon-excluded.com'] });
    expect((after.body.results as { reasons: string[] }[])[0]!.reasons).toEqual(['globally_excluded']);
    const pushed = await push({
      contacts: [{ email: 'cfo@elsewhere.com', companyDomain: 'www.soon-excluded.com' }],
    });
    expect(pushed.body.skippedContacts).toEqual([
      { email: 'cfo@elsewhere.com', reasons: ['globally_excluded'] },
    ]);
  });
});

/** The push's own DynamoDB requests by operation, leaving out the authorizer's (API key reads and last-used times). */
async function pushRequests(body: unknown) {
  const { result, calls } = await countRequests(() => push(body));
  const requests: Record<string, number> = {};
  for (const call of calls.filter((each) => !JSON.stringify(each.input).includes('"APIKEY#'))) {
    requests[call.operation] = (requests[call.operation] ?? 0) + 1;
  }
  return { result, requests };
}

describe('the DynamoDB requests of a push no other request contends with', () => {
  // The counts are of the push alone: the work earlier tests queued (relay, consumers) is done first.
  beforeEach(() => settle(stack, receiver));

  it('writes 1,000 new contacts in batches and transactions, not a round trip per contact', async () => {
    const contacts = Array.from({ length: 1000 }, (_, index) => ({
      email: `bulk${index}@bulk-push.com`,
      firstName: `B${index}`,
      variables: { line: `line ${index}` },
    }));
    const { result, requests } = await pushRequests({ contacts, triggerIntake: true });
    expect(result.body).toMatchObject({ created: 1000, skipped: 0, errors: [] });
    // Reads: settings and exclusions, then 100 contacts a request; two id allocations; 10 transactions of
    // 100 new contacts and 21 of 49 assignments (each with its contact's summary and the counters).
    expect(requests).toEqual({ BatchGetItem: 11, UpdateItem: 2, TransactWriteItems: 31 });
  }, 180_000); // the suite's largest request: 44 DynamoDB requests, each slow on a loaded machine

  it.each([
    // Reads as above; the contact's id, the contact; the assignment's id, the assignment.
    ['a new contact', 'one-new@count.example', { BatchGetItem: 2, UpdateItem: 2, TransactWriteItems: 2 }],
    ['a known contact', 'fresh@ok.com', { BatchGetItem: 2, UpdateItem: 1, TransactWriteItems: 1 }],
  ])('pushes %s with the same requests as before the eligibility guard', async (_case, address, expected) => {
    const contacts = [{ email: address }];
    const { result, requests } = await pushRequests({ contacts, sequenceId: 202 });
    expect(result.body).toMatchObject({ created: 1, errors: [] });
    expect(requests).toEqual(expected);
  });
});
