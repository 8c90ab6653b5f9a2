import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { settle, stackIn } from '../support/settle.ts';
import { startStackProcess, stopStackProcess, stopStartedStackProcesses } from '../support/stack-process.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The local stack restarted on its data directory (split from faults.test.ts,
 * so its restart runs beside the other faults): `npm start` in its own
 * process, stopped and started again (once: each start is a DynamoDB Local and
 * a load of the service), keeps every write, sends nothing twice, and finishes
 * the work that was queued at the stop.
 */

interface Body {
  message?: string;
  [field: string]: unknown;
}

/** The webhook subscriber: `/ok/…` 200, `/flaky/…` 503 until healed. */
let receiver: WebhookReceiver;
let receiverUrl: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
});
afterAll(async () => {
  // A stack left running by a failed test is stopped the way Ctrl-C stops it, so its DynamoDB Local goes too.
  await stopStartedStackProcesses();
  await receiver.stop();
});

/** A request to `/public/v1` of the stack at `base`; `text` is the body as received. */
function api(
  key: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  base: string,
) {
  return apiClient(base, key).call<Body>(method, path, body, { headers });
}

describe('the local stack restarted on its data directory', () => {
  // One stop and start for both properties: each `npm start` is a fresh DynamoDB Local and a fresh load of
  // the service, the most expensive thing an e2e test can do.
  it('keeps every write across a stop and start (reads identical, ids continue, nothing sent twice) and finishes the work queued at the stop', async () => {
    // Must hold: after a clean stop, a start on the same data directory serves exactly what was there (every
    // read below identical), sends nothing again (no mail, no webhook), and allocates ids after the old ones;
    // and a webhook delivery still retrying when the stack stops is delivered once the stack is back (its
    // outbox item is relayed again from the stream: the local queues keep nothing).
    const dataDir = mkdtempSync(join(tmpdir(), 'faults-data-'));
    const localDir = mkdtempSync(join(tmpdir(), 'faults-local-'));
    const environment = {
      OUTREACH_LOCAL_DIR: localDir,
      // Provider activity played back after the snapshot would change the reads compared below.
      PROVIDER_EMULATOR_PLAYBACK: 'manual',
      // Retries a minute apart: the one pending at the stop is still waiting in the queue.
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '60',
    };
    const first = await startStackProcess(['--port', '0', '--data-dir', dataDir], environment);
    const apiKey = first.apiKey!;
    const call = (method: string, path: string, body?: unknown) =>
      api(apiKey, method, path, body, {}, first.baseUrl);
    const deliveriesOf = async (base: string, hook: { id: number }) =>
      (await api(apiKey, 'GET', `/webhooks/${hook.id}/deliveries`, undefined, {}, base)).body.data as Body[];

    const [campaign] = ((await call('GET', '/campaigns')).body.campaigns as Body[]) ?? [];
    const campaignId = campaign!.id as number;
    const pushed = await call('POST', `/campaigns/${campaignId}/raw/contacts`, {
      contacts: [{ email: 'kept1@restart.example' }, { email: 'kept2@restart.example', firstName: 'Kept' }],
      triggerIntake: true,
    });
    expect(pushed.body).toMatchObject({ created: 2 });
    const [assignmentId] = pushed.body.assignmentIds as number[];
    expect(
      (await call('POST', `/assignments/${assignmentId}/reply`, { body: 'Kept across restarts' })).status,
    ).toBe(200);
    const hook = (
      await call('POST', '/webhooks', { url: `${receiverUrl}/ok/restart`, events: ['first_touch'] })
    ).body as Body & { id: number };
    const pending = (
      await call('POST', '/webhooks', { url: `${receiverUrl}/flaky/across-restart`, events: ['first_touch'] })
    ).body as Body & { id: number };
    for (const each of [hook, pending])
      expect((await call('POST', `/webhooks/${each.id}/test`)).status).toBe(200);
    const [account] =
      ((await call('GET', `/campaigns/${campaignId}/accounts`)).body.accounts as Body[]) ?? [];
    expect((await call('POST', '/accounts/exclude', { company_url: account!.domain })).status).toBe(200);
    // Everything asynchronous has happened before the stop: the mail is kept as .eml, one webhook delivered,
    // the other failed once and waits for its retry.
    await waitFor(async () => {
      expect(readdirSync(join(dataDir, 'mail'))).toHaveLength(1);
      expect(await deliveriesOf(first.baseUrl, hook)).toMatchObject([{ status: 'delivered' }]);
      expect(await deliveriesOf(first.baseUrl, pending)).toMatchObject([{ status: 'retrying', attempts: 1 }]);
      // The demo's sequences are linked to the provider emulators: the pushed contacts are enrolled.
      const contacts = (await call('GET', `/campaigns/${campaignId}/contacts?take=100`)).body.data as Body[];
      expect(contacts.filter((each) => (each.enrollment as Body | null)?.status === 'pending')).toEqual([]);
    });

    const reads = [
      '/campaigns',
      `/campaigns/${campaignId}`,
      `/campaigns/${campaignId}/accounts?take=100`,
      `/campaigns/${campaignId}/contacts?take=100`,
      `/campaigns/${campaignId}/messages?take=100`,
      `/accounts?domain=${encodeURIComponent(String(account!.domain))}`,
      '/analytics/overview',
      // The delivered subscription alone: the other's delivery state changes once the stack is back.
      `/webhooks/${hook.id}`,
      `/webhooks/${hook.id}/deliveries`,
    ];
    const snapshot = async (base: string) =>
      Promise.all(
        reads.map(async (path) => {
          const response = await api(apiKey, 'GET', path, undefined, {}, base);
          expect(response.status, path).toBe(200);
          return [path, response.body] as const;
        }),
      );
    const before = await snapshot(first.baseUrl);
    const restartRequests = receiver.requests.filter((request) => request.path === '/ok/restart').length;
    expect(await stopStackProcess(first.child)).toBe(0);

    receiver.heal();
    const second = await startStackProcess(['--port', '0', '--data-dir', dataDir], environment);
    expect(second.output()).toMatch(/Demo org:\s+\d+ \(existing data/);
    expect(await snapshot(second.baseUrl)).toEqual(before);
    const more = await api(
      apiKey,
      'POST',
      `/campaigns/${campaignId}/raw/contacts`,
      { contacts: [{ email: 'after@restart.example' }] },
      {},
      second.baseUrl,
    );
    expect((more.body.assignmentIds as number[])[0]).toBeGreaterThan(
      Math.max(...(pushed.body.assignmentIds as number[])),
    );
    await waitFor(async () => {
      expect(await deliveriesOf(second.baseUrl, pending)).toMatchObject([
        { status: 'delivered', attempts: 2 },
      ]);
    });
    await settle(stackIn(localDir), receiver, apiKey);
    expect(readdirSync(join(dataDir, 'mail'))).toHaveLength(1);
    expect(receiver.requests.filter((request) => request.path === '/ok/restart')).toHaveLength(
      restartRequests,
    );
    expect(receiver.requests.filter((request) => request.path === '/flaky/across-restart')).toHaveLength(2);
    expect(await stopStackProcess(second.child)).toBe(0);
  }, 180_000);
});
