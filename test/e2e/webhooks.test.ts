import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertAccount } from '#domain/accounts.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import type { DeliveryJob } from '#domain/webhook-delivery-records.ts';
import { newEventId } from '#domain/webhook-events.ts';
import { fanOutWebhookEvent } from '#domain/webhook-fan-out.ts';
import { getWebhook, listWebhooks, MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { configuration, tableName, useConfiguration } from '#platform/config.ts';
import { redriveDeadLetters } from '#platform/dead-letters.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { providerEvent } from '#schemas/import.ts';
import { webhookPayload } from '#schemas/webhooks.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { settle } from '../support/settle.ts';
import { sqsRecord } from '../support/sqs-record.ts';
import { waitFor } from '../support/wait.ts';
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';

/**
 * Outgoing webhooks against the local stack, delivered for real to a receiver
 * on 127.0.0.1 that verifies every signature with the `standardwebhooks`
 * package: subscriptions over HTTP, each event kind from its domain change
 * (outbox → stream relay → fan-out → webhooks queue → dispatcher), retries
 * with the same webhook-id, 410, redirects, the deliveries log, redelivery,
 * partial batch failures and the dead-letter redrive.
 */

interface Body {
  message?: string;
  [field: string]: unknown;
}

let stack: LocalStack;
let receiver: WebhookReceiver;
let receiverUrl: string;
const savedSchedule = process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS;

beforeAll(async () => {
  // Retries come back within a second here (the deployed schedule spans a day).
  process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS = '1';
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
});
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
  if (savedSchedule === undefined) delete process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS;
  else process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS = savedSchedule;
});

/** Records a provider event as live traffic does (validated, so defaults apply). */
const recordLive = (orgId: number, event: unknown) => recordProviderEvent(orgId, providerEvent.parse(event));

async function newOrganization(name: string) {
  const { orgId } = await createOrganization(name);
  const { apiKey } = await createApiKey(orgId);
  return { orgId, apiKey };
}

function api(key: string, method: string, path: string, body?: unknown) {
  return apiClient(stack, key).call<Body>(method, path, body);
}

/** Subscribes `path` of the receiver; returns the created subscription (with its secret). */
async function subscribe(
  key: string,
  path: string,
  events = ['new_opportunities', 'first_touch', 'positive_reply'],
) {
  const response = await api(key, 'POST', '/webhooks', { url: `${receiverUrl}${path}`, events });
  expect(response.status).toBe(200);
  return response.body as Body & { id: number; secret: string };
}

/** Verifies a received request with the reference library and returns the payload. */
const verified = (secret: string, request: ReceivedRequest) =>
  webhookPayload.parse(new Webhook(secret).verify(request.body, request.headers as Record<string, string>));

async function deliveries(key: string, webhookId: number, query = '') {
  const response = await api(key, 'GET', `/webhooks/${webhookId}/deliveries${query}`);
  expect(response.status).toBe(200);
  return response.body as { data: Body[]; next: number | null };
}

describe('webhook subscriptions', () => {
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    ({ apiKey: key } = await newOrganization('Hooks CRUD'));
    ({ apiKey: otherKey } = await newOrganization('Hooks Other'));
  });

  it('creates a subscription, showing its whsec_ secret only in the create response', async () => {
    const created = await subscribe(key, '/ok/crud', ['positive_reply', 'first_touch', 'first_touch']);
    expect(created).toMatchObject({
      id: expect.any(Number),
      url: `${receiverUrl}/ok/crud`,
      events: ['first_touch', 'positive_reply'],
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    const read = await api(key, 'GET', `/webhooks/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body).toEqual({
      ...created,
      secret: undefined,
      created_at: created.created_at,
      updated_at: created.updated_at,
    });
    const list = await api(key, 'GET', '/webhooks');
    expect(list.body.webhooks).toEqual([read.body]);
  });

  it('updates url, event types and enabled, and deletes', async () => {
    const created = await subscribe(key, '/ok/update');
    const updated = await api(key, 'PATCH', `/webhooks/${created.id}`, {
      url: `${receiverUrl}/ok/updated`,
      events: ['new_opportunities'],
      enabled: false,
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { url: `${receiverUrl}/ok/updated`, events: ['new_opportunities'], enabled: false },
    });
    expect((await api(key, 'PATCH', `/webhooks/${created.id}`, { enabled: true })).body.enabled).toBe(true);
    expect(await api(key, 'DELETE', `/webhooks/${created.id}`)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await api(key, 'GET', `/webhooks/${created.id}`)).toMatchObject({
      status: 404,
      body: { message: `Webhook ${created.id} not found` },
    });
    expect((await api(key, 'DELETE', `/webhooks/${created.id}`)).status).toBe(404);
  });

  it.each([
    ['a missing url', { events: ['first_touch'] }, "'url'"],
    ['no event types', { url: 'https://example.com/hook', events: [] }, "'events'"],
    ['an unknown event type', { url: 'https://example.com/hook', events: ['opened'] }, "'events[0]'"],
    ['a URL that is not one', { url: 'hooks', events: ['first_touch'] }, "'url': must be an absolute URL"],
    ['ftp', { url: 'ftp://example.com/', events: ['first_touch'] }, "'url': must use https"],
    ['http to a private address', { url: 'http://10.0.0.1/', events: ['first_touch'] }, "'url'"],
  ])('answers 400 for %s', async (_case, body, field) => {
    const response = await api(key, 'POST', '/webhooks', body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(field);
  });

  it('refuses URLs that reach loopback, private, link-local or metadata addresses (the cloud policy)', async () => {
    // The local stack allows loopback; the deployed service does not. The handler reads the flag per request.
    const local = configuration();
    useConfiguration({ ...local, webhooks: { ...local.webhooks, allowHttpLoopback: false } });
    try {
      for (const [url, reason] of [
        ['https://10.0.0.1/hook', 'private'],
        ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
        ['https://[::1]/hook', 'loopback'],
        ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
        ['https://[::ffff:10.0.0.1]/hook', 'private'],
        ['https://100.64.0.1/hook', 'cgnat'],
        ['https://localhost/hook', 'the host resolves to a loopback address'],
        [`${receiverUrl}/ok/cloud`, 'must use https'],
      ] as const) {
        const response = await api(key, 'POST', '/webhooks', { url, events: ['first_touch'] });
        expect(response.status, url).toBe(400);
        expect(response.body.message, url).toMatch(
          new RegExp(`^Invalid body field 'url': .*${reason.replace(/[.[\]]/g, '\\$&')}`),
        );
      }
    } finally {
      useConfiguration(local);
    }
  });

  it('answers 400 for an invalid id or an empty update, and 404 for another organization’s webhook', async () => {
    const created = await subscribe(key, '/ok/tenant');
    expect((await api(key, 'GET', '/webhooks/abc')).status).toBe(400);
    expect((await api(key, 'PATCH', `/webhooks/${created.id}`, {})).status).toBe(400);
    expect((await api(key, 'PATCH', `/webhooks/${created.id}`, { url: 'https://10.1.2.3/' })).status).toBe(
      400,
    );
    for (const [method, path] of [
      ['GET', `/webhooks/${created.id}`],
      ['PATCH', `/webhooks/${created.id}`],
      ['DELETE', `/webhooks/${created.id}`],
      ['POST', `/webhooks/${created.id}/test`],
      ['POST', `/webhooks/${created.id}/rotate-secret`],
      ['GET', `/webhooks/${created.id}/deliveries`],
      ['POST', `/webhooks/${created.id}/deliveries/1/redeliver`],
    ] as const) {
      const response = await api(otherKey, method, path, method === 'PATCH' ? { enabled: false } : undefined);
      expect(response, `${method} ${path}`).toMatchObject({
        status: 404,
        body: { message: `Webhook ${created.id} not found` },
      });
    }
    expect((await api(otherKey, 'GET', '/webhooks')).body.webhooks).toEqual([]);
    expect((await api(key, 'GET', `/webhooks/${created.id}`)).body.enabled).toBe(true);
  });

  it('holds an organization to 25 subscriptions even when creates race, and frees a place on delete', async () => {
    const { apiKey: limited } = await newOrganization('Hooks Limit');
    const create = () =>
      api(limited, 'POST', '/webhooks', { url: `${receiverUrl}/ok/limit`, events: ['first_touch'] });
    const answers = await Promise.all(Array.from({ length: MAX_WEBHOOKS_PER_ORGANIZATION + 5 }, create));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    expect(answers.find((answer) => answer.status === 409)?.body).toMatchObject({
      message: `An organization can have at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks`,
    });
    const listed = (await api(limited, 'GET', '/webhooks')).body.webhooks as { id: number }[];
    expect(listed).toHaveLength(MAX_WEBHOOKS_PER_ORGANIZATION);
    expect((await create()).status).toBe(409);
    expect((await api(limited, 'DELETE', `/webhooks/${listed[0]!.id}`)).status).toBe(200);
    expect((await create()).status).not.toBe(409);
    expect((await create()).status).toBe(409);
  });
});

describe('webhook delivery', () => {
  let key: string;

  beforeAll(async () => {
    ({ apiKey: key } = await newOrganization('Hooks Delivery'));
  });

  it('delivers a signed test event and logs the delivery', async () => {
    const hook = await subscribe(key, '/ok/test-event');
    const response = await api(key, 'POST', `/webhooks/${hook.id}/test`);
    expect(response.status).toBe(200);
    expect(response.body.delivery).toMatchObject({
      webhook_id: hook.id,
      event_type: 'test',
      status: 'pending',
      attempts: 0,
    });

    const [request] = await receiver.arrivals('/ok/test-event', 1);
    const payload = verified(hook.secret, request!);
    expect(payload).toEqual({
      type: 'test',
      timestamp: expect.any(String),
      data: { webhook_id: hook.id, message: expect.any(String) },
    });
    expect(request!.headers['webhook-id']).toBe((response.body.delivery as Body).event_id);
    expect(request!.headers['content-type']).toBe('application/json');

    const log = await waitFor(async () => {
      const page = await deliveries(key, hook.id);
      expect(page.data[0]).toMatchObject({ status: 'delivered' });
      return page;
    });
    expect(log.data).toEqual([
      expect.objectContaining({
        id: (response.body.delivery as Body).id,
        status: 'delivered',
        attempts: 1,
        response_code: 200,
        latency_ms: expect.any(Number),
        error: null,
        delivered_at: expect.any(String),
        next_attempt_at: null,
      }),
    ]);
    expect(log.next).toBeNull();
  });

  it('retries a receiver that fails 3 times and delivers exactly once, with the same webhook-id every time', async () => {
    const hook = await subscribe(key, '/fail/3/retry');
    await api(key, 'POST', `/webhooks/${hook.id}/test`);
    const requests = await receiver.arrivals('/fail/3/retry', 4);
    await settle(stack, receiver);
    const all = receiver.requests.filter((request) => request.path === '/fail/3/retry');
    expect(all.map((request) => request.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(all.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) expect(verified(hook.secret, request).type).toBe('test');
    const [delivery] = (await deliveries(key, hook.id)).data;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 4, response_code: 200 });
    // The streak of failures ended with the success.
    expect((await api(key, 'GET', `/webhooks/${hook.id}`)).body.failing_since).toBeNull();
  });

  it('disables the subscription when the receiver answers 410 Gone, and does not retry', async () => {
    const hook = await subscribe(key, '/gone/one');
    await api(key, 'POST', `/webhooks/${hook.id}/test`);
    await receiver.arrivals('/gone/one', 1);
    const subscription = await waitFor(async () => {
      const read = await api(key, 'GET', `/webhooks/${hook.id}`);
      expect(read.body.enabled).toBe(false);
      return read.body;
    });
    expect(subscription.disabled_reason).toMatch(/410 Gone/);
    const [delivery] = (await deliveries(key, hook.id)).data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, response_code: 410 });
    await settle(stack, receiver);
    expect(receiver.requests.filter((request) => request.path === '/gone/one')).toHaveLength(1);
    // Enabling it again clears the reason.
    const enabled = await api(key, 'PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const hook = await subscribe(key, '/redirect/one');
    await api(key, 'POST', `/webhooks/${hook.id}/test`);
    await receiver.arrivals('/redirect/one', 2);
    const [delivery] = (await deliveries(key, hook.id)).data;
    expect(delivery).toMatchObject({ response_code: 302 });
    expect(['retrying', 'pending']).toContain(delivery!.status);
    expect(receiver.requests.some((request) => request.path === '/ok/after-redirect')).toBe(false);
    await api(key, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('redelivers a delivery on request with the same webhook-id and payload, and pages the log', async () => {
    const hook = await subscribe(key, '/ok/redeliver');
    const first = (await api(key, 'POST', `/webhooks/${hook.id}/test`)).body.delivery as Body;
    const second = (await api(key, 'POST', `/webhooks/${hook.id}/test`)).body.delivery as Body;
    const [original] = await receiver.arrivals('/ok/redeliver', 2);
    await waitFor(async () =>
      expect((await deliveries(key, hook.id)).data.every((entry) => entry.status === 'delivered')).toBe(true),
    );

    const response = await api(key, 'POST', `/webhooks/${hook.id}/deliveries/${first.id}/redeliver`);
    expect(response.status).toBe(200);
    expect(response.body.delivery).toMatchObject({ id: first.id, status: 'pending' });
    const requests = await receiver.arrivals('/ok/redeliver', 3);
    const again = requests.at(-1)!;
    const firstRequest = requests.find((request) => request.headers['webhook-id'] === first.event_id)!;
    expect(again.headers['webhook-id']).toBe(first.event_id);
    expect(again.body).toBe(firstRequest.body);
    expect(verified(hook.secret, again)).toEqual(verified(hook.secret, firstRequest));
    expect(original).toBeDefined();

    const redelivered = await waitFor(async () => {
      const entry = (await deliveries(key, hook.id)).data.find((candidate) => candidate.id === first.id)!;
      expect(entry).toMatchObject({ status: 'delivered', attempts: 2 });
      return entry;
    });
    expect(redelivered.response_code).toBe(200);

    // Newest first, one a page.
    const page1 = await deliveries(key, hook.id, '?take=1');
    expect(page1.data.map((entry) => entry.id)).toEqual([second.id]);
    const page2 = await deliveries(key, hook.id, `?take=1&cursor=${page1.next}`);
    expect(page2.data.map((entry) => entry.id)).toEqual([first.id]);
    expect(page2.next).toBeNull();
    expect((await api(key, 'GET', `/webhooks/${hook.id}/deliveries?take=0`)).status).toBe(400);

    expect(await api(key, 'POST', `/webhooks/${hook.id}/deliveries/999999/redeliver`)).toMatchObject({
      status: 404,
      body: { message: 'Delivery 999999 not found' },
    });
  });

  it('rotates the secret: the new one is shown once, and both sign for a while', async () => {
    const hook = await subscribe(key, '/ok/rotate');
    const rotated = await api(key, 'POST', `/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    expect((await api(key, 'GET', `/webhooks/${hook.id}`)).body).not.toHaveProperty('secret');
    await api(key, 'POST', `/webhooks/${hook.id}/test`);
    const [request] = await receiver.arrivals('/ok/rotate', 1);
    expect(verified(secret, request!).type).toBe('test');
    expect(verified(hook.secret, request!).type).toBe('test');
  });
});

describe('webhook events from domain changes', () => {
  let orgId: number;
  let key: string;
  let hook: Body & { id: number; secret: string };

  beforeAll(async () => {
    ({ orgId, apiKey: key } = await newOrganization('Hooks Events'));
    hook = await subscribe(key, '/ok/events');
  });

  const payloadsOf = (path: string, secret: string) =>
    receiver.requests.filter((request) => request.path === path).map((request) => verified(secret, request));

  it('emits New Opportunities, First Touch and Positive Reply from an import with emitEvents', async () => {
    await importFor(orgId, smallDocument(), { emitEvents: true });

    await receiver.arrivals('/ok/events', 5);
    const payloads = payloadsOf('/ok/events', hook.secret);
    const opportunities = payloads.filter((payload) => payload.type === 'new_opportunities');
    expect(
      opportunities.map((payload) => payload.data).sort((a, b) => a.campaign_id - b.campaign_id),
    ).toEqual([
      {
        campaign_id: 101,
        accounts: [
          expect.objectContaining({ id: 301, domain: 'acme.com', score: 0.9 }),
          expect.objectContaining({ id: 302, score: 0.5 }),
        ],
      },
      // initech.com (303) is excluded, so it is no opportunity.
      { campaign_id: 102, accounts: [expect.objectContaining({ id: 302, domain: 'globex.io', score: 0.7 })] },
    ]);
    const firstTouches = payloads.filter((payload) => payload.type === 'first_touch');
    expect(
      firstTouches.map((payload) => [payload.data.assignment_id, payload.data.message.id]).sort(),
    ).toEqual([
      [501, 602],
      [503, 601],
    ]);
    expect(firstTouches.find((payload) => payload.data.assignment_id === 501)!.data).toMatchObject({
      campaign_id: 101,
      sequence_id: 201,
      contact: { id: 401, email: 'ann@acme.com', first_name: 'Ann' },
      message: { id: 602, assignment_id: 501, type: 'sent', subject: 'Hi' },
    });
    const replies = payloads.filter((payload) => payload.type === 'positive_reply');
    expect(replies.map((payload) => payload.data)).toEqual([
      expect.objectContaining({
        assignment_id: 501,
        campaign_id: 101,
        message: expect.objectContaining({
          id: 603,
          type: 'received',
          response_type: 'positive',
          body: 'Interested!',
        }),
      }),
    ]);
  });

  it('emits First Touch and Positive Reply for live provider events; the reply can be answered at once', async () => {
    const before = receiver.requests.filter((request) => request.path === '/ok/events').length;
    await recordLive(orgId, {
      id: `live-${randomUUID()}`,
      assignment_id: 504,
      type: 'message_sent',
      message: { step_type: 'linkedin_connect', body: 'Let us connect' },
    });
    await recordLive(orgId, {
      id: `live-${randomUUID()}`,
      assignment_id: 504,
      type: 'reply_received',
      response_type: 'positive',
      message: { step_type: 'reply', body: 'Sure, call me' },
    });
    // A second sent message is no first touch, and a neutral reply no positive one.
    await recordLive(orgId, {
      id: `live-${randomUUID()}`,
      assignment_id: 504,
      type: 'reply_received',
      response_type: 'neutral',
      message: { step_type: 'reply', body: 'Later' },
    }).catch(() => undefined);
    const requests = (await receiver.arrivals('/ok/events', before + 2)).slice(before);
    await settle(stack, receiver);
    expect(receiver.requests.filter((request) => request.path === '/ok/events')).toHaveLength(before + 2);
    const [touch, reply] = requests
      .map((request) => verified(hook.secret, request))
      .sort((a) => (a.type === 'first_touch' ? -1 : 1));
    expect(touch).toMatchObject({
      type: 'first_touch',
      data: { assignment_id: 504, message: { type: 'sent', body: 'Let us connect' } },
    });
    expect(reply).toMatchObject({
      type: 'positive_reply',
      data: {
        assignment_id: 504,
        contact: { id: 404 },
        message: { type: 'received', response_type: 'positive', body: 'Sure, call me' },
      },
    });
    if (reply?.type !== 'positive_reply') throw new Error('expected a positive reply');
    const answer = await api(key, 'POST', `/assignments/${reply.data.assignment_id}/reply`, {
      body: 'Great, Thursday?',
      to: 'dee@ray.com',
    });
    expect(answer).toEqual({ status: 200, body: { success: true } });
  });

  it('emits First Touch when a reply is an assignment’s first sent message', async () => {
    const { orgId: replyOrg, apiKey: replyKey } = await newOrganization('Hooks Reply');
    await importFor(replyOrg, smallDocument({ messages: [], events: [] }));
    const replyHook = await subscribe(replyKey, '/ok/reply-first-touch', ['first_touch']);
    expect((await api(replyKey, 'POST', '/assignments/501/reply', { body: 'Hello Ann' })).status).toBe(200);
    const [request] = await receiver.arrivals('/ok/reply-first-touch', 1);
    expect(verified(replyHook.secret, request!)).toMatchObject({
      type: 'first_touch',
      data: { assignment_id: 501, message: { type: 'sent', step_type: 'reply', body: 'Hello Ann' } },
    });
  });

  it('batches New Opportunities per campaign, at most 100 accounts an event, each account once', async () => {
    const { orgId: bulkOrg, apiKey: bulkKey } = await newOrganization('Hooks Bulk');
    const bulkHook = await subscribe(bulkKey, '/ok/bulk', ['new_opportunities']);
    const accounts = Array.from({ length: 150 }, (_, index) => ({
      id: 1000 + index,
      domain: `bulk${index}.example.com`,
      campaigns: [{ campaign_id: 101, score: index / 150, signals: [] }],
    }));
    await importFor(bulkOrg, smallDocument({ accounts, exclusions: [] }), { emitEvents: true });

    const payloads = (await receiver.arrivals('/ok/bulk', 2)).map((request) =>
      verified(bulkHook.secret, request),
    );
    const batches = payloads.map((payload) =>
      payload.type === 'new_opportunities' ? payload.data.accounts : [],
    );
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(100);
    expect(
      batches
        .flat()
        .map((account) => account.id)
        .sort((a, b) => a - b),
    ).toEqual(accounts.map((account) => account.id));
  });

  it('emits the New Opportunities an interrupted import left marked when the import runs again', async () => {
    const { orgId: resumeOrg, apiKey: resumeKey } = await newOrganization('Hooks Resume');
    const resumeHook = await subscribe(resumeKey, '/ok/resume', ['new_opportunities']);
    const document = smallDocument({ accounts: [], exclusions: [] });
    await importFor(resumeOrg, document);
    // The account was written and marked, then the run stopped before the events were written.
    const account = {
      id: 777,
      domain: 'resume.example.com',
      campaigns: [{ campaign_id: 102, score: 0.4, signals: [] }],
    };
    const { newOpportunities } = await upsertAccount(resumeOrg, account, false, { emitEvents: true });
    expect(newOpportunities).toHaveLength(1);
    await settle(stack, receiver);
    expect(receiver.requests.filter((request) => request.path === '/ok/resume')).toEqual([]);

    const again = { ...document, accounts: [account] };
    await importFor(resumeOrg, again, { emitEvents: true });
    const [request] = await receiver.arrivals('/ok/resume', 1);
    expect(verified(resumeHook.secret, request!)).toMatchObject({
      type: 'new_opportunities',
      data: { campaign_id: 102, accounts: [{ id: 777, domain: 'resume.example.com', score: 0.4 }] },
    });
    // Once emitted, the mark is gone: a third run announces nothing.
    await importFor(resumeOrg, again, { emitEvents: true });
    await settle(stack, receiver);
    expect(receiver.requests.filter((candidate) => candidate.path === '/ok/resume')).toHaveLength(1);
  });

  it('emits nothing for an import unless asked to', async () => {
    const { orgId: quietOrg, apiKey: quietKey } = await newOrganization('Hooks Quiet');
    const quietHook = await subscribe(quietKey, '/ok/quiet');
    await importFor(quietOrg, smallDocument());
    // A live event after the import arrives; nothing from the import came before it.
    await recordLive(quietOrg, {
      id: `live-${randomUUID()}`,
      assignment_id: 504,
      type: 'message_sent',
      message: { step_type: 'linkedin_connect', body: 'Hi' },
    });
    await receiver.arrivals('/ok/quiet', 1);
    await settle(stack, receiver);
    const payloads = payloadsOf('/ok/quiet', quietHook.secret);
    expect(
      payloads.map((payload) => [
        payload.type,
        'assignment_id' in payload.data ? payload.data.assignment_id : null,
      ]),
    ).toEqual([['first_touch', 504]]);
  });

  it('sends an event only to subscriptions that asked for its type and are enabled', async () => {
    const { orgId: pickyOrg, apiKey: pickyKey } = await newOrganization('Hooks Picky');
    const touches = await subscribe(pickyKey, '/ok/picky-touch', ['first_touch']);
    await subscribe(pickyKey, '/ok/picky-replies', ['positive_reply']);
    const disabled = await subscribe(pickyKey, '/ok/picky-disabled', ['first_touch']);
    await api(pickyKey, 'PATCH', `/webhooks/${disabled.id}`, { enabled: false });
    await importFor(pickyOrg, smallDocument({ messages: [], events: [] }));
    await recordLive(pickyOrg, {
      id: `live-${randomUUID()}`,
      assignment_id: 501,
      type: 'message_sent',
      message: { step_type: 'email', subject: 'Hi', body: 'Hello' },
    });
    const [request] = await receiver.arrivals('/ok/picky-touch', 1);
    expect(verified(touches.secret, request!).type).toBe('first_touch');
    await settle(stack, receiver);
    expect(
      receiver.requests.filter(
        (candidate) => candidate.path === '/ok/picky-replies' || candidate.path === '/ok/picky-disabled',
      ),
    ).toEqual([]);
  });
});

describe('the webhook dispatcher and the relay', () => {
  let orgId: number;
  let key: string;
  let handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

  beforeAll(async () => {
    ({ orgId, apiKey: key } = await newOrganization('Hooks Dispatcher'));
    ({ handler } = await import('../../functions/webhook-dispatcher/handler.ts'));
  });

  const record = (job: DeliveryJob, receiveCount = 1): SQSRecord =>
    sqsRecord(job, `m-${job.deliveryId}`, receiveCount);

  /** Fans an event out to the organization's subscriptions without queueing it (the test drives the handler). */
  const fanOut = (eventType: 'first_touch' | 'positive_reply') =>
    fanOutWebhookEvent(
      orgId,
      {
        eventId: newEventId(),
        eventType,
        payload: JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: {} }),
        occurredAt: new Date().toISOString(),
      },
      listWebhooks,
    );

  it('reports only the failed record of a batch, and a batch handed back whole sends only what failed', async () => {
    // Prepare: three subscriptions, the middle one failing.
    await subscribe(key, '/ok/batch-a', ['first_touch']);
    const down = await subscribe(key, '/down/batch', ['first_touch']);
    await subscribe(key, '/ok/batch-b', ['first_touch']);
    const jobs = await fanOut('first_touch');
    expect(jobs).toHaveLength(3);
    const records = jobs.map((job) => record(job));

    // Act
    const first = await handler({ Records: records });

    // Assess
    const failing = jobs.find((job) => job.webhookId === down.id)!;
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: `m-${failing.deliveryId}` }]);
    expect(
      receiver.requests.filter(
        (request) => request.path.endsWith('/batch-a') || request.path.endsWith('/batch-b'),
      ),
    ).toHaveLength(2);

    // The dispatcher dies after that: Lambda hands the whole batch back, as a second receive.
    const second = await handler({ Records: jobs.map((job) => record(job, 2)) });
    expect(second.batchItemFailures).toEqual([{ itemIdentifier: `m-${failing.deliveryId}` }]);
    expect(
      receiver.requests.filter(
        (request) => request.path.endsWith('/batch-a') || request.path.endsWith('/batch-b'),
      ),
    ).toHaveLength(2);
    expect(receiver.requests.filter((request) => request.path === '/down/batch')).toHaveLength(2);
    const [delivery] = (await deliveries(key, down.id)).data;
    expect(delivery).toMatchObject({
      status: 'retrying',
      attempts: 2,
      response_code: 503,
      next_attempt_at: expect.any(String),
    });
    expect((await api(key, 'GET', `/webhooks/${down.id}`)).body.failing_since).toEqual(expect.any(String));
    for (const path of ['/ok/batch-a', '/down/batch', '/ok/batch-b']) {
      const hook = (await listWebhooks(orgId)).find((candidate) => candidate.url.endsWith(path))!;
      await api(key, 'DELETE', `/webhooks/${hook.webhookId}`);
    }
  });

  it('marks the delivery failed on the last attempt, and disables a subscription failing for five days', async () => {
    const down = await subscribe(key, '/down/five-days', ['positive_reply']);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(orgId, down.id),
        UpdateExpression: 'SET failingSince = :since',
        ExpressionAttributeValues: { ':since': new Date(Date.now() - 5 * 86_400_000 - 60_000).toISOString() },
      }),
    );
    const [job] = await fanOut('positive_reply');
    const result = await handler({ Records: [record(job!, 8)] });
    expect(result.batchItemFailures).toHaveLength(1);
    const [delivery] = (await deliveries(key, down.id)).data;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_code: 503,
      next_attempt_at: null,
    });
    const subscription = await getWebhook(orgId, down.id);
    expect(subscription.enabled).toBe(false);
    expect(subscription.disabledReason).toMatch(/failed since .* \(5 days\)/);
    await api(key, 'DELETE', `/webhooks/${down.id}`);
  });

  it('fans an event out once, however often the relay handles its record', async () => {
    const hook = await subscribe(key, '/ok/fan-out-once', ['first_touch']);
    const event = {
      eventId: newEventId(),
      eventType: 'first_touch',
      payload: '{"type":"test","timestamp":"","data":{}}',
      occurredAt: new Date().toISOString(),
    };
    const once = await fanOutWebhookEvent(orgId, event, listWebhooks);
    const twice = await fanOutWebhookEvent(orgId, event, listWebhooks);
    expect(twice).toEqual(once);
    expect(once).toHaveLength(1);
    expect((await deliveries(key, hook.id)).data).toHaveLength(1);
    await api(key, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('drops the messages of a deleted subscription’s deliveries', async () => {
    const hook = await subscribe(key, '/ok/deleted', ['first_touch']);
    const [job] = await fanOut('first_touch');
    await api(key, 'DELETE', `/webhooks/${hook.id}`);
    expect((await handler({ Records: [record(job!)] })).batchItemFailures).toEqual([]);
    expect(receiver.requests.filter((request) => request.path === '/ok/deleted')).toEqual([]);
  });

  it('redrives dead letters back to the queue, where they are delivered', async () => {
    const hook = await subscribe(key, '/ok/redrive', ['first_touch']);
    const [job] = await fanOut('first_touch');
    const { sqs } = await import('#platform/queue-client.ts');
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.deadLetterQueueUrls.webhooks,
        MessageBody: JSON.stringify(job),
      }),
    );
    expect(await redriveDeadLetters('webhooks')).toEqual({ moved: 1 });
    const [request] = await receiver.arrivals('/ok/redrive', 1);
    expect(request!.headers['webhook-id']).toBe(job!.eventId);
    expect(await redriveDeadLetters('webhooks')).toEqual({ moved: 0 });
    await api(key, 'DELETE', `/webhooks/${hook.id}`);
  });
});
