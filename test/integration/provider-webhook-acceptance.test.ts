import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUEUE_MESSAGE_BYTES } from '#definitions/queues.ts';
import { createOrganization } from '#domain/organizations.ts';
import { webhookUrlOf } from '#domain/provider-connections.ts';
import { acceptProviderWebhook } from '#use-cases/accept-provider-webhook.ts';
import { connectAtEmulator } from '../support/provider-workspace.ts';

/**
 * The inbound provider webhook's use case past the endpoint's own size limit:
 * a body whose escaping for the queue would take it over the queue's message
 * limit is refused as `too-large` (413) before anything is sent, never left for
 * the queue to refuse (500). Within MAX_PROVIDER_WEBHOOK_BYTES this cannot
 * happen (test/e2e/provider-webhook-limits.test.ts); the check still holds
 * should that limit ever grow.
 */

let delivery: { organization: string; connection: string; token: string };

beforeAll(async () => {
  const { orgId } = await createOrganization('Acceptance Inc');
  const connection = await connectAtEmulator(orgId, 'lemlist', 'll-key');
  const [organization, connectionId, token] = (await webhookUrlOf(connection, '')).split('/').slice(-3);
  delivery = { organization: organization!, connection: connectionId!, token: token! };
});

describe('accepting a provider webhook', () => {
  it('refuses a body the queue could not take once escaped as too large, without sending it', async () => {
    // 400,000 × U+FFFF: 1.2 MB as sent, 2.4 MB escaped (no configured queue URL is needed to refuse it).
    const body = JSON.stringify({ type: 'emailsReplied', text: '\uffff'.repeat(400_000) });
    const acceptance = await acceptProviderWebhook({ ...delivery, body });
    expect(acceptance).toEqual({ outcome: 'too-large', messageBytes: expect.any(Number) });
    expect((acceptance as { messageBytes: number }).messageBytes).toBeGreaterThan(MAX_QUEUE_MESSAGE_BYTES);
  });
});
