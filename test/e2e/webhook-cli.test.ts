import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '#domain/organizations.ts';
import { newEventId } from '#domain/webhook-events.ts';
import { fanOutWebhookEvent } from '#domain/webhook-fan-out.ts';
import { listWebhooks } from '#domain/webhooks.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { type AdminRun, admin as adminInProcess } from '../support/cli.ts';
import { smallDocument } from '../support/fixtures.ts';
import { startTestStack } from '../support/local-stack.ts';
import { settle } from '../support/settle.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * `outreach-admin webhook …` (through the CLI's `main(argv)`, in this process)
 * reaching the running local stack through its endpoints file, doing what the
 * `/webhooks` endpoints do, plus the dead-letter redrive.
 */

let stack: LocalStack;
let receiver: WebhookReceiver;
let receiverUrl: string;
const localDir = mkdtempSync(join(tmpdir(), 'outreach-webhook-cli-'));

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
});
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
});

function admin(...args: string[]): Promise<AdminRun> {
  return adminInProcess(localDir, args);
}

describe('outreach-admin webhook', () => {
  it('creates, lists, tests, shows deliveries, updates, rotates and deletes a subscription', async () => {
    const { orgId } = await createOrganization('Webhook CLI');
    const org = String(orgId);

    const created = await admin(
      'webhook',
      'create',
      '--org',
      org,
      '--url',
      `${receiverUrl}/cli`,
      '--events',
      'first_touch,positive_reply',
      '--json',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const webhook = JSON.parse(created.stdout) as { id: number; secret: string; events: string[] };
    expect(webhook).toMatchObject({
      events: ['first_touch', 'positive_reply'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = String(webhook.id);

    const list = await admin('webhook', 'list', '--org', org);
    expect(list.stdout).toContain(`${id}\tenabled\tfirst_touch,positive_reply\t${receiverUrl}/cli`);
    expect(list.stdout).not.toContain('whsec_');

    const test = await admin('webhook', 'test', '--org', org, '--webhook', id, '--json');
    expect(test.code).toBe(0);
    const [request] = await receiver.arrivals('/cli', 1);
    expect(
      new Webhook(webhook.secret).verify(request!.body, request!.headers as Record<string, string>),
    ).toMatchObject({
      type: 'test',
    });

    const deliveries = await admin('webhook', 'deliveries', '--org', org, '--webhook', id, '--json');
    const page = JSON.parse(deliveries.stdout) as { data: { id: number; status: string }[] };
    expect(page.data).toHaveLength(1);
    const redelivered = await admin(
      'webhook',
      'redeliver',
      '--org',
      org,
      '--webhook',
      id,
      '--delivery',
      String(page.data[0]!.id),
    );
    expect(redelivered).toMatchObject({ code: 0, stdout: expect.stringContaining('Queued delivery') });
    const [first, second] = await receiver.arrivals('/cli', 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);

    const updated = await admin(
      'webhook',
      'update',
      '--org',
      org,
      '--webhook',
      id,
      '--disable',
      '--events',
      'new_opportunities',
      '--json',
    );
    expect(JSON.parse(updated.stdout)).toMatchObject({ enabled: false, events: ['new_opportunities'] });
    const rotated = await admin('webhook', 'rotate-secret', '--org', org, '--webhook', id, '--json');
    expect((JSON.parse(rotated.stdout) as { secret: string }).secret).not.toBe(webhook.secret);
    expect(await admin('webhook', 'delete', '--org', org, '--webhook', id)).toMatchObject({ code: 0 });
    expect(await admin('webhook', 'get', '--org', org, '--webhook', id)).toMatchObject({
      code: 1,
      stderr: `Webhook ${id} not found\n`,
    });
  });

  it('refuses bad usage and refused URLs', async () => {
    const { orgId } = await createOrganization('Webhook CLI usage');
    const org = String(orgId);
    expect(
      (await admin('webhook', 'create', '--org', org, '--url', `${receiverUrl}/x`, '--events', 'opened'))
        .code,
    ).toBe(2);
    expect((await admin('webhook', 'create', '--org', org, '--events', 'first_touch')).code).toBe(2);
    expect((await admin('webhook', 'update', '--org', org, '--webhook', '1')).code).toBe(2);
    const refused = await admin(
      'webhook',
      'create',
      '--org',
      org,
      '--url',
      'https://169.254.169.254/',
      '--events',
      'first_touch',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/'url': the host is a cloud metadata address/);
  });

  it('imports without webhook events by default, and with them given --emit-events', async () => {
    const file = join(localDir, 'small.json');
    writeFileSync(file, JSON.stringify(smallDocument()));
    const quiet = await createOrganization('Webhook CLI import');
    await admin(
      'webhook',
      'create',
      '--org',
      String(quiet.orgId),
      '--url',
      `${receiverUrl}/import-quiet`,
      '--events',
      'first_touch,positive_reply,new_opportunities',
    );
    const loud = await createOrganization('Webhook CLI import, events');
    await admin(
      'webhook',
      'create',
      '--org',
      String(loud.orgId),
      '--url',
      `${receiverUrl}/import-events`,
      '--events',
      'first_touch,positive_reply,new_opportunities',
    );

    expect((await admin('import', '--org', String(quiet.orgId), file)).code).toBe(0);
    expect((await admin('import', '--org', String(loud.orgId), file, '--emit-events')).code).toBe(0);

    // Two New Opportunities (one per campaign), two First Touches, one Positive Reply.
    const events = await receiver.arrivals('/import-events', 5);
    expect(events.map((request) => (JSON.parse(request.body) as { type: string }).type).sort()).toEqual([
      'first_touch',
      'first_touch',
      'new_opportunities',
      'new_opportunities',
      'positive_reply',
    ]);
    await settle(stack, receiver);
    expect(receiver.on('/import-quiet')).toEqual([]);
  });

  it('redrives the webhooks dead-letter queue back to the queue, where the deliveries go out', async () => {
    const { orgId } = await createOrganization('Webhook CLI redrive');
    const created = await admin(
      'webhook',
      'create',
      '--org',
      String(orgId),
      '--url',
      `${receiverUrl}/redrive`,
      '--events',
      'first_touch',
      '--json',
    );
    expect(created.code).toBe(0);
    const jobs = await fanOutWebhookEvent(
      orgId,
      {
        eventId: newEventId(),
        eventType: 'first_touch',
        payload: '{"type":"test","timestamp":"","data":{}}',
        occurredAt: new Date().toISOString(),
      },
      listWebhooks,
    );
    const { sqs } = await import('#platform/queue-client.ts');
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.deadLetterQueueUrls.webhooks,
        MessageBody: JSON.stringify(jobs[0]),
      }),
    );

    const redrive = await admin('webhook', 'redrive', '--json');
    expect(redrive).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(redrive.stdout)).toEqual({ moved: 1 });
    const [request] = await receiver.arrivals('/redrive', 1);
    expect(request!.headers['webhook-id']).toBe(jobs[0]!.eventId);
  });
});
