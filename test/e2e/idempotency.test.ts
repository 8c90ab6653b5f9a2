import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { type ApiAnswer, apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { countRequests } from '../support/request-counter.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * `Idempotency-Key` on every POST, PATCH and DELETE of `/public/v1`, over HTTP
 * against the local stack: a retry with the same key and request replays the
 * first answer (with `Idempotent-Replayed: true`) and does nothing again, a
 * reply's mail included; the same key with another request is 422, while the
 * first is still running 409; keys are the organization's; a malformed key is
 * 400 naming the header; an answer that is not a success is not kept.
 */

interface Body {
  message?: string;
  errors?: { path: string; message: string }[];
  [field: string]: unknown;
}

let stack: LocalStack;
let receiver: WebhookReceiver;
let orgId: number;
let apiKey: string;
let otherKey: string;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Retry Inc'));
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, smallDocument());
  ({ apiKey: otherKey } = await createApiKey((await createOrganization('Other Retry Inc')).orgId));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const call = (method: string, path: string, body: unknown, key: string | undefined, apiKeyOf = apiKey) =>
  apiClient(stack, apiKeyOf).call<Body>(method, path, body, {
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

const replayed = (answer: ApiAnswer<Body>) => answer.headers.get('idempotent-replayed');

/** The organization's subscriptions to `url`. */
async function subscriptionsTo(url: string, key = apiKey): Promise<number> {
  const listed = await apiClient(stack, key).get<{ webhooks: { url: string }[] }>('/webhooks');
  return listed.body.webhooks.filter((webhook) => webhook.url === url).length;
}

/** Marks the key's stored request as still running, as it is between its claim and its answer. */
async function holdInFlight(key: string): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.idempotency(orgId, key),
      UpdateExpression: 'SET #state = :running REMOVE #response',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':running': 'running' },
    }),
  );
}

describe('Idempotency-Key on the unsafe operations of /public/v1', () => {
  it('sends ONE mail for a reply retried with the same key, and replays its answer', async () => {
    const text = `Retried reply ${Date.now()}`;
    const first = await call('POST', '/assignments/501/reply', { body: text }, 'reply-retry-1');
    const second = await call('POST', '/assignments/501/reply', { body: text }, 'reply-retry-1');
    await waitFor(() => expect(stack.smtp.messages.some((mail) => mail.raw.includes(text))).toBe(true), {
      what: 'the reply in the sink',
    });
    await settle(stack, receiver);
    expect(stack.smtp.messages.filter((mail) => mail.raw.includes(text))).toHaveLength(1);
    expect(first).toEqual({ status: 200, body: { success: true } });
    expect(second).toEqual(first);
    expect(second.text).toBe(first.text);
    expect(replayed(first)).toBeNull();
    expect(replayed(second)).toBe('true');
  });

  it('creates ONE subscription for a webhook create retried with the same key, and answers it again', async () => {
    const url = `${receiver.url}/retried-create`;
    const first = await call('POST', '/webhooks', { url, events: ['first_touch'] }, 'create-retry-1');
    const second = await call('POST', '/webhooks', { events: ['first_touch'], url }, 'create-retry-1');
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(replayed(second)).toBe('true');
    expect(await subscriptionsTo(url)).toBe(1);
  });

  it('keeps an answer that holds a credential sealed, never in clear, and replays it whole', async () => {
    const url = `${receiver.url}/sealed-create`;
    const account = await emulatedConnection(stack, 'smartlead', 'k');
    const webhook = await call('POST', '/webhooks', { url, events: ['first_touch'] }, 'sealed-webhook');
    const connection = await call('POST', '/provider-connections', account, 'sealed-conn');
    const rotated = await call(
      'POST',
      `/provider-connections/${connection.body.id}/rotate-webhook-url`,
      {},
      'sealed-rot',
    );
    const rotatedSecret = await call(
      'POST',
      `/webhooks/${webhook.body.id}/rotate-secret`,
      {},
      'sealed-secret',
    );
    const kept = [
      [rotatedSecret, 'sealed-secret', String(rotatedSecret.body.secret)],
      [webhook, 'sealed-webhook', String(webhook.body.secret)],
      [connection, 'sealed-conn', String(connection.body.webhook_url).split('/').pop()!],
      [rotated, 'sealed-rot', String(rotated.body.webhook_url).split('/').pop()!],
    ] as const;
    for (const [first, key, credential] of kept) {
      expect(first.status).toBe(200);
      expect(credential.length).toBeGreaterThan(20);
      const { Item } = await dynamo.send(
        new GetCommand({ TableName: tableName(), Key: keys.idempotency(orgId, key), ConsistentRead: true }),
      );
      expect(Item?.state).toBe('done');
      expect(JSON.stringify(Item)).not.toContain(credential);
    }
    const again = await call('POST', '/webhooks', { url, events: ['first_touch'] }, 'sealed-webhook');
    expect(again).toEqual(webhook);
    expect(replayed(again)).toBe('true');
    const connectionAgain = await call('POST', '/provider-connections', account, 'sealed-conn');
    expect(connectionAgain).toEqual(connection);
  });

  it('replays a PATCH and a DELETE: the second DELETE is the first’s answer, not a 404', async () => {
    const url = `${receiver.url}/retried-delete`;
    const { body: created } = await call('POST', '/webhooks', { url, events: ['first_touch'] }, undefined);
    const patch = () => call('PATCH', `/webhooks/${created.id}`, { enabled: false }, 'patch-retry-1');
    const patched = await patch();
    expect(await patch()).toEqual(patched);
    const remove = () => call('DELETE', `/webhooks/${created.id}`, undefined, 'delete-retry-1');
    const removed = await remove();
    expect(removed).toEqual({ status: 200, body: { success: true } });
    const again = await remove();
    expect(again).toEqual(removed);
    expect(replayed(again)).toBe('true');
    // Without the key, the same DELETE is a new request.
    expect((await call('DELETE', `/webhooks/${created.id}`, undefined, undefined)).status).toBe(404);
  });

  it('answers 422 for the same key with another body, or on another operation', async () => {
    const url = `${receiver.url}/reused-key`;
    expect((await call('POST', '/webhooks', { url, events: ['first_touch'] }, 'reused-1')).status).toBe(200);
    const otherBody = await call('POST', '/webhooks', { url, events: ['positive_reply'] }, 'reused-1');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.message).toBe('Idempotency-Key was already used with a different request');
    const otherOperation = await call('POST', '/assignments/501/reply', { body: 'Hi' }, 'reused-1');
    expect(otherOperation.status).toBe(422);
    expect(replayed(otherOperation)).toBeNull();
    expect(await subscriptionsTo(url)).toBe(1);
  });

  it('answers 409 while the first request under the key is still in flight, and does nothing', async () => {
    const url = `${receiver.url}/in-flight`;
    const body = { url, events: ['first_touch'] };
    expect((await call('POST', '/webhooks', body, 'in-flight-1')).status).toBe(200);
    await holdInFlight('in-flight-1');
    const retried = await call('POST', '/webhooks', body, 'in-flight-1');
    expect(retried.status).toBe(409);
    expect(retried.body.message).toBe('A request with this Idempotency-Key is still in progress');
    expect(await subscriptionsTo(url)).toBe(1);
  });

  it('keeps keys per organization: another organization’s same key is a request of its own', async () => {
    const url = `${receiver.url}/per-organization`;
    const body = { url, events: ['first_touch'] };
    const ours = await call('POST', '/webhooks', body, 'shared-key-1');
    const theirs = await call('POST', '/webhooks', body, 'shared-key-1', otherKey);
    expect(theirs.status).toBe(200);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body.secret).not.toBe(ours.body.secret);
    expect(await subscriptionsTo(url, otherKey)).toBe(1);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['not ASCII', 'clé-1'],
    ['with a control character', 'tab\there'],
  ])('answers 400 naming the header for a key that is %s, and does nothing', async (_case, key) => {
    const url = `${receiver.url}/bad-key`;
    const answer = await call('POST', '/webhooks', { url, events: ['first_touch'] }, key);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Idempotency-Key must be 1-255 printable ASCII characters');
    expect(answer.body.errors).toEqual([
      { path: 'header.Idempotency-Key', message: 'Idempotency-Key must be 1-255 printable ASCII characters' },
    ]);
    expect(await subscriptionsTo(url)).toBe(0);
  });

  it('names a malformed key beside the body’s problems', async () => {
    const answer = await call('POST', '/webhooks', { url: 'https://example.com/', events: 'x' }, '');
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((problem) => problem.path)).toEqual([
      'body.events',
      'header.Idempotency-Key',
    ]);
  });

  it('keeps no answer that is not a success: the same key runs the request again', async () => {
    // Assignment 504's contact has no email: without `to` the reply is refused.
    const refused = await call('POST', '/assignments/504/reply', { body: 'Hi Dee' }, 'refused-1');
    expect(refused.status).toBe(400);
    const again = await call('POST', '/assignments/504/reply', { body: 'Hi Dee' }, 'refused-1');
    expect({ status: again.status, message: again.body.message }).toEqual({
      status: 400,
      message: refused.body.message,
    });
    // Not a replay: the request ran again (an error's request_id is its own request's).
    expect(again.body.request_id).not.toBe(refused.body.request_id);
    expect(replayed(again)).toBeNull();
    // The key was released: a corrected request may use it.
    const corrected = await call(
      'POST',
      '/assignments/504/reply',
      { body: 'Hi Dee', to: 'dee@ray.com' },
      'refused-1',
    );
    expect(corrected).toEqual({ status: 200, body: { success: true } });
  });

  it('ignores the header on a GET', async () => {
    const answer = await call('GET', '/webhooks', undefined, '');
    expect(answer.status).toBe(200);
    expect(replayed(answer)).toBeNull();
  });

  it('costs a request without the header nothing; with it a claim and a completion, a replay two reads', async () => {
    const create = (url: string, key: string | undefined) =>
      countRequests(() => call('POST', '/webhooks', { url, events: ['first_touch'] }, key));
    const tableCalls = ({ calls }: { calls: { operation: string; input: unknown }[] }) =>
      calls.filter((each) => !JSON.stringify(each.input).includes('APIKEY#')).map((each) => each.operation);
    // The authorizer's decision is cached after the first request of the key, and the background work of
    // the tests before (mail, webhook deliveries) is done, so only the requests measured are counted.
    await call('GET', '/auth', undefined, undefined);
    await settle(stack, receiver);
    const plain = tableCalls(await create(`${receiver.url}/cost-plain`, undefined));
    const keyed = tableCalls(await create(`${receiver.url}/cost-keyed`, 'cost-1'));
    const replay = tableCalls(await create(`${receiver.url}/cost-keyed`, 'cost-1'));
    expect(plain).toEqual(['GetItem', 'UpdateItem', 'TransactWriteItems']);
    expect(keyed).toEqual(['PutItem', ...plain, 'UpdateItem']);
    expect(replay).toEqual(['PutItem', 'GetItem']);
  });
});
