import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { getAssignment } from '#domain/assignments.ts';
import { getContact } from '#domain/contacts.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { contractMembers } from '../support/problem.ts';
import { maintainedAndRecomputed } from '../support/recompute.ts';

/**
 * Regressions of the raw push's hardening, over HTTP against the local stack:
 * snippet variables named like Object.prototype members, bodies nested far
 * deeper than any resource, parallel pushes of one contact into different
 * campaigns and sequences, which must leave it the one assignment the
 * eligibility rules allow, as pushes one after another do, and requests with
 * several problems, which must name every one of them.
 */

interface Body {
  message?: string;
  [field: string]: unknown;
}

interface PushResult {
  created: number;
  updated: number;
  skipped: number;
  assignmentIds: number[];
  errors: { index: number; email: string | null; message: string }[];
  skippedContacts: { email: string; reasons: string[] }[];
}

let stack: LocalStack;
let apiKey: string;
let orgId: number;

/** Twenty campaigns of one email sequence each (campaign 100 + n, sequence 200 + n). */
const RACE_CAMPAIGNS = Array.from({ length: 20 }, (_, index) => 101 + index);
/** A campaign with four sequences, three of them email, for races between the sequences of one campaign. */
const MULTI_SEQUENCE_CAMPAIGN = 121;
const MULTI_SEQUENCES = [221, 222, 223, 224];
/** Contacts the organization knows already, without any assignment. */
const KNOWN_EMAILS = Array.from({ length: 6 }, (_, index) => `known${index}@race.example`);

function raceDocument() {
  const steps = [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hi {{first_name}}' }] }];
  return {
    campaigns: [
      ...RACE_CAMPAIGNS.map((id) => ({
        id,
        name: `Race ${id}`,
        sequences: [{ id: id + 100, provider: 'smartlead', channel: 'email', steps }],
      })),
      {
        id: MULTI_SEQUENCE_CAMPAIGN,
        name: 'Many sequences',
        sequences: MULTI_SEQUENCES.map((id) => ({
          id,
          provider: 'lemlist',
          channel: id === 223 ? 'linkedin' : 'email',
          steps:
            id === 223 ? [{ type: 'linkedin_connect', variants: [{ body: 'Hi {{first_name}}' }] }] : steps,
        })),
      },
    ],
    contacts: KNOWN_EMAILS.map((email, index) => ({ id: index + 1, email })),
  };
}

beforeAll(async () => {
  stack = await startTestStack();
  const organization = await createOrganization('Hardening Inc');
  orgId = organization.orgId;
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, raceDocument());
}, 120_000);
afterAll(() => stack.stop());

function call(method: string, path: string, body?: unknown) {
  return apiClient(stack, apiKey).call<Body>(method, path, body);
}

const push = (campaignId: number, body: unknown) =>
  call('POST', `/campaigns/${campaignId}/raw/contacts`, body);

/** Pending-approval and scheduled assignments over every campaign, as their maintained counters say. */
async function countersOverAllCampaigns() {
  const totals = { pending_approval: 0, scheduled: 0 };
  for (const id of [...RACE_CAMPAIGNS, MULTI_SEQUENCE_CAMPAIGN]) {
    const detail = await call('GET', `/campaigns/${id}`);
    const contacts = detail.body.contacts as typeof totals;
    totals.pending_approval += contacts.pending_approval;
    totals.scheduled += contacts.scheduled;
  }
  return totals;
}

/** Asserts that every counter and contact summary equals a recomputation from the assignment items. */
async function expectCountersConsistent() {
  const { stored, recomputed } = await maintainedAndRecomputed(orgId);
  expect(stored).toEqual(recomputed);
}

/** The contact's assignments, as its eligibility summary records them. */
async function assignmentsOf(email: string) {
  const contact = await getContact(orgId, { id: 0, email });
  return Object.values(contact?.assignments ?? {});
}

/** Runs one push per target at the same time and returns their results (each must be a 200). */
async function race(targets: { campaignId: number; body: object }[]): Promise<PushResult[]> {
  const responses = await Promise.all(targets.map((target) => push(target.campaignId, target.body)));
  for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(200);
  return responses.map((response) => response.body as unknown as PushResult);
}

/**
 * Asserts that each email got exactly one assignment from the pushes and that
 * every other push skipped it for `reason`; returns the assignment ids created.
 */
function expectOneAssignmentEach(results: PushResult[], emails: string[], reason: string): number[] {
  expect(results.reduce((total, result) => total + result.created, 0)).toBe(emails.length);
  expect(results.reduce((total, result) => total + result.skipped, 0)).toBe(
    emails.length * (results.length - 1),
  );
  for (const result of results) {
    expect(result.errors).toEqual([]);
    expect(result.updated).toBe(0);
    for (const skipped of result.skippedContacts) expect(skipped.reasons).toEqual([reason]);
  }
  for (const email of emails) {
    const skippedBy = results.filter((result) =>
      result.skippedContacts.some((skipped) => skipped.email === email),
    );
    expect(skippedBy, email).toHaveLength(results.length - 1);
  }
  return results.flatMap((result) => result.assignmentIds);
}

describe('snippet variables named like Object.prototype members', () => {
  it('stores a variable named constructor as given (row 3 of the issue: a 500 for the whole push)', async () => {
    const response = await push(101, {
      contacts: [{ email: 'ctor@vars.example', variables: { constructor: 'x' } }],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 1, errors: [] });
    const [assignmentId] = response.body.assignmentIds as number[];
    expect([...(await getAssignment(orgId, assignmentId!)).variables]).toEqual([['constructor', 'x']]);
  });

  it('stores every such name the name pattern allows, and reports the ones it does not in errors', async () => {
    const allowed = {
      constructor: 'a',
      toString: 'b',
      valueOf: 'c',
      hasOwnProperty: 'd',
      isPrototypeOf: 'e',
      propertyIsEnumerable: 'f',
      toLocaleString: 'g',
      prototype: 'h',
    };
    const response = await push(102, {
      contacts: [
        { email: 'names@vars.example', variables: allowed },
        { email: 'proto@vars.example', variables: JSON.parse('{"__proto__": "x", "ok": "y"}') },
        { email: 'getter@vars.example', variables: { __defineGetter__: 'x' } },
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 1, skipped: 0 });
    const [assignmentId] = response.body.assignmentIds as number[];
    expect(Object.fromEntries((await getAssignment(orgId, assignmentId!)).variables)).toEqual(allowed);
    const errors = response.body.errors as PushResult['errors'];
    expect(errors.map((error) => [error.index, error.email])).toEqual([
      [1, 'proto@vars.example'],
      [2, 'getter@vars.example'],
    ]);
    expect(errors[0]!.message).toContain("'variables.__proto__'");
    expect(errors[1]!.message).toContain("'variables.__defineGetter__'");
  });

  it('updates an existing assignment’s variables to such names with skipIneligible false', async () => {
    const first = await push(103, { contacts: [{ email: 'again@vars.example', variables: { a: '1' } }] });
    const [assignmentId] = first.body.assignmentIds as number[];
    const second = await push(103, {
      skipIneligible: false,
      contacts: [{ email: 'again@vars.example', variables: { valueOf: '2', toString: '3' } }],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ created: 0, updated: 1, assignmentIds: [assignmentId] });
    expect(Object.fromEntries((await getAssignment(orgId, assignmentId!)).variables)).toEqual({
      valueOf: '2',
      toString: '3',
    });
  });
});

describe('bodies nested deeper than any resource', () => {
  it('answers 400 naming the depth limit for 4,000 nested arrays in contacts (row 4: a 500)', async () => {
    const body = `{"contacts":${'['.repeat(4000)}${']'.repeat(4000)}}`;
    expect(body.length).toBeLessThan(8 * 1024 + 100);
    const response = await push(101, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: JSON_TOO_DEEP_MESSAGE });
  });

  it('answers 400 naming the depth limit for variables nested 5,000 deep (row 4: a 500)', async () => {
    const nested = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const response = await push(101, `{"contacts":[{"email":"deep@vars.example","variables":${nested}}]}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: JSON_TOO_DEEP_MESSAGE });
    expect(await getContact(orgId, { id: 0, email: 'deep@vars.example' })).toBeNull();
  });

  it('takes a body nested exactly to the limit and refuses one level more', async () => {
    // The body object, `contacts`, its contact and `variables` are four levels; the rest nest in a variable.
    const nestedIn = (levels: number) =>
      `{"contacts":[{"email":"limit@vars.example","variables":{"v":${'['.repeat(levels)}${']'.repeat(levels)}}}]}`;
    const atLimit = await push(101, nestedIn(MAX_JSON_DEPTH - 4));
    expect(atLimit.status).toBe(200);
    expect((atLimit.body.errors as PushResult['errors'])[0]!.message).toContain("'variables.v'");
    const overLimit = await push(101, nestedIn(MAX_JSON_DEPTH - 3));
    expect(overLimit).toMatchObject({ status: 400, body: { message: JSON_TOO_DEEP_MESSAGE } });
  });
});

describe('requests with several problems', () => {
  it('names every problem of the path and the body, in the message and in errors, with the request id', async () => {
    const response = await call('POST', '/campaigns/abc/raw/contacts', {
      contacts: 'not-a-list',
      triggerIntake: 'yes',
      skipIneligible: 1,
    });
    const errors = [
      { path: 'path.id', message: "Invalid path parameter 'id': must be a positive integer" },
      {
        path: 'body.contacts',
        message: "Invalid body field 'contacts': Invalid input: expected array, received string",
      },
      {
        path: 'body.triggerIntake',
        message: "Invalid body field 'triggerIntake': Invalid input: expected boolean, received string",
      },
      {
        path: 'body.skipIneligible',
        message: "Invalid body field 'skipIneligible': Invalid input: expected boolean, received number",
      },
    ];
    expect(response.status).toBe(400);
    expect(contractMembers(response.status, JSON.stringify(response.body))).toStrictEqual({
      message: errors.map((error) => error.message).join('; '),
      errors,
      request_id: response.headers.get('x-amzn-requestid'),
    });
    // The contract's members first, then the RFC 9457 ones.
    expect(Object.keys(response.body)).toEqual([
      'message',
      'errors',
      'request_id',
      'type',
      'title',
      'status',
      'detail',
    ]);
    expect(response.body.request_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
  });

  it('names each bad email of a dry run by its index, and nothing runs', async () => {
    const response = await call('POST', '/campaigns/101/raw/contacts/check-eligibility', {
      emails: ['fine@dry-run.example', 'not-an-email', 42],
      bypassGlobalExcluded: 'no',
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: 'body.emails[1]', message: "Invalid body field 'emails[1]': must be an email address" },
      {
        path: 'body.emails[2]',
        message: "Invalid body field 'emails[2]': Invalid input: expected string, received number",
      },
      {
        path: 'body.bypassGlobalExcluded',
        message:
          "Invalid body field 'bypassGlobalExcluded': Invalid input: expected boolean, received string",
      },
    ]);
    expect(response.body.message).toBe(
      "Invalid body field 'emails[1]': must be an email address; " +
        "Invalid body field 'emails[2]': Invalid input: expected string, received number; " +
        "Invalid body field 'bypassGlobalExcluded': Invalid input: expected boolean, received string",
    );
    expect(response.body.request_id).toBe(response.headers.get('x-amzn-requestid'));
  });

  it('keeps a single problem’s message as it was, with its one entry in errors', async () => {
    const response = await push(101, { contacts: [], triggerIntake: 'yes' });
    expect(response.status).toBe(400);
    const message = "Invalid body field 'triggerIntake': Invalid input: expected boolean, received string";
    expect(contractMembers(response.status, JSON.stringify(response.body))).toStrictEqual({
      message,
      errors: [{ path: 'body.triggerIntake', message }],
      request_id: response.headers.get('x-amzn-requestid'),
    });
  });

  it('gives a not-found its request id and an empty errors', async () => {
    const response = await push(999_999, { contacts: [{ email: 'nobody@missing.example' }] });
    expect(response.status).toBe(404);
    expect(contractMembers(response.status, JSON.stringify(response.body))).toStrictEqual({
      message: 'Campaign 999999 not found',
      errors: [],
      request_id: response.headers.get('x-amzn-requestid'),
    });
  });
});

describe('parallel pushes of one contact (row 5: each push created an assignment)', () => {
  it('creates one assignment for a new email pushed into four campaigns at once; the others are unapproved', async () => {
    const email = 'four@race.example';
    const before = await countersOverAllCampaigns();
    const results = await race(
      RACE_CAMPAIGNS.slice(0, 4).map((campaignId) => ({ campaignId, body: { contacts: [{ email }] } })),
    );
    expectOneAssignmentEach(results, [email], 'unapproved');
    expect(await assignmentsOf(email)).toHaveLength(1);
    const after = await countersOverAllCampaigns();
    expect(after.pending_approval - before.pending_approval).toBe(1);
    await expectCountersConsistent();
  });

  it('creates one assignment for a new email pushed into twenty campaigns at once', async () => {
    const email = 'twenty@race.example';
    const before = await countersOverAllCampaigns();
    const results = await race(
      RACE_CAMPAIGNS.map((campaignId) => ({ campaignId, body: { contacts: [{ email }] } })),
    );
    expectOneAssignmentEach(results, [email], 'unapproved');
    expect(await assignmentsOf(email)).toHaveLength(1);
    expect((await countersOverAllCampaigns()).pending_approval - before.pending_approval).toBe(1);
  });

  it.each([4, 20])(
    'creates one assignment per email when %i pushes of the same several emails race',
    async (pushes) => {
      const emails = Array.from({ length: 8 }, (_, index) => `several${pushes}-${index}@race.example`);
      const before = await countersOverAllCampaigns();
      const results = await race(
        RACE_CAMPAIGNS.slice(0, pushes).map((campaignId, index) => ({
          campaignId,
          // Each push lists the emails in another order, so the pushes' transactions interleave differently.
          body: {
            contacts: [...emails.slice(index % 8), ...emails.slice(0, index % 8)].map((e) => ({ email: e })),
          },
        })),
      );
      expectOneAssignmentEach(results, emails, 'unapproved');
      for (const email of emails) expect(await assignmentsOf(email), email).toHaveLength(1);
      expect((await countersOverAllCampaigns()).pending_approval - before.pending_approval).toBe(
        emails.length,
      );
      await expectCountersConsistent();
    },
  );

  it('creates one assignment for a known contact pushed into four sequences of one campaign at once', async () => {
    const email = KNOWN_EMAILS[0]!;
    const results = await race(
      MULTI_SEQUENCES.map((sequenceId) => ({
        campaignId: MULTI_SEQUENCE_CAMPAIGN,
        body: { sequenceId, contacts: [{ email }] },
      })),
    );
    expectOneAssignmentEach(results, [email], 'unapproved');
    expect(await assignmentsOf(email)).toHaveLength(1);
  });

  it('schedules one assignment with triggerIntake; the other email sequences are in cooldown', async () => {
    const email = 'intake@race.example';
    const results = await race(
      RACE_CAMPAIGNS.slice(4, 8).map((campaignId) => ({
        campaignId,
        body: { triggerIntake: true, contacts: [{ email }] },
      })),
    );
    expectOneAssignmentEach(results, [email], 'cooldown_other_sequences');
    expect(await assignmentsOf(email)).toMatchObject([{ status: 'scheduled' }]);
  });

  it('schedules one assignment per campaign with triggerIntake and bypassCooldownOtherSequences, as pushes one after another do', async () => {
    const email = 'bypass@race.example';
    const before = await countersOverAllCampaigns();
    const results = await race(
      RACE_CAMPAIGNS.slice(8, 12).map((campaignId) => ({
        campaignId,
        body: { triggerIntake: true, bypassCooldownOtherSequences: true, contacts: [{ email }] },
      })),
    );
    for (const result of results) expect(result).toMatchObject({ created: 1, skipped: 0 });
    expect(await assignmentsOf(email)).toHaveLength(4);
    expect((await countersOverAllCampaigns()).scheduled - before.scheduled).toBe(4);
  });

  it('pushes everyone with skipIneligible false: one assignment per campaign', async () => {
    const email = 'everyone@race.example';
    const results = await race(
      RACE_CAMPAIGNS.slice(12, 16).map((campaignId) => ({
        campaignId,
        body: { skipIneligible: false, contacts: [{ email }] },
      })),
    );
    for (const result of results) expect(result).toMatchObject({ created: 1, skipped: 0 });
    expect(await assignmentsOf(email)).toHaveLength(4);
  });

  it('leaves one pending assignment when takeovers race: each withdraws the one before it', async () => {
    const email = KNOWN_EMAILS[1]!;
    const before = await countersOverAllCampaigns();
    const results = await race(
      RACE_CAMPAIGNS.slice(16, 20).map((campaignId) => ({
        campaignId,
        body: { takeoverUnapproved: true, contacts: [{ email }] },
      })),
    );
    for (const result of results) expect(result).toMatchObject({ created: 1, skipped: 0 });
    const remaining = await assignmentsOf(email);
    expect(remaining).toMatchObject([{ status: 'pending-approval' }]);
    expect((await countersOverAllCampaigns()).pending_approval - before.pending_approval).toBe(1);
    await expectCountersConsistent();
  });
});
