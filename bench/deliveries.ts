import { applyImport, validateImport } from '#admin/import.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { providerEvent } from '#schemas/import.ts';
import { allocateId } from '#store/ids.ts';
import { mapLimit } from '#store/transactions.ts';
import { CONCURRENCY, round } from './load.ts';
import type { Receiver } from './receiver.ts';

/**
 * Webhook deliveries per second, end to end on the local stack: provider
 * events (a first message sent to each of many contacts) become First Touch
 * events in the outbox, the stream relay fans each out to every subscription,
 * the dispatcher sends them to the local receiver. Timed from the first event
 * recorded to the last delivery received.
 */

export interface DeliveryThroughput {
  subscriptions: number;
  events: number;
  deliveries: number;
  /** Recording the provider events (the domain writes, with `CONCURRENCY` in flight). */
  eventsWrittenSeconds: number;
  /** First event recorded to last delivery received. */
  totalSeconds: number;
  deliveriesPerSecond: number;
}

export async function measureDeliveries(
  apiUrl: string,
  receiver: Receiver,
  options: { subscriptions: number; events: number; runId: string },
): Promise<DeliveryThroughput> {
  const { orgId } = await createOrganization('Bench Deliveries');
  const { apiKey } = await createApiKey(orgId);
  const [campaignId, sequenceId] = [await allocateId('campaign'), await allocateId('sequence')];
  const document = validateImport({
    campaigns: [
      {
        id: campaignId,
        name: 'Deliveries',
        sequences: [
          {
            id: sequenceId,
            provider: 'smartlead',
            channel: 'email',
            steps: [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hello' }] }],
          },
        ],
      },
    ],
  });
  if (!document.ok) throw new Error(JSON.stringify(document.errors));
  await applyImport(orgId, document.document);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${apiUrl}/public/v1${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const prefix = `/bench/deliveries/${options.runId}/`;
  for (let index = 0; index < options.subscriptions; index++) {
    await post('/webhooks', { url: `${receiver.url}${prefix}${index}`, events: ['first_touch'] });
  }
  const pushed = await post(`/campaigns/${campaignId}/raw/contacts`, {
    sequenceId,
    triggerIntake: true,
    contacts: Array.from({ length: options.events }, (_, index) => ({
      email: `touch${index}@deliveries.example`,
    })),
  });
  const assignmentIds = pushed.assignmentIds as number[];

  const expected = options.events * options.subscriptions;
  const started = performance.now();
  await mapLimit(assignmentIds, CONCURRENCY, (assignmentId, index) =>
    recordProviderEvent(
      orgId,
      providerEvent.parse({
        id: `bench-touch-${options.runId}-${index}`,
        assignment_id: assignmentId,
        type: 'message_sent',
        message: { step_type: 'email', subject: 'Hi', body: 'Hello' },
      }),
    ),
  );
  const eventsWritten = performance.now() - started;
  await receiver.waitFor(prefix, expected, 300_000);
  const total = (performance.now() - started) / 1000;
  return {
    subscriptions: options.subscriptions,
    events: options.events,
    deliveries: receiver.count(prefix),
    eventsWrittenSeconds: round(eventsWritten / 1000),
    totalSeconds: round(total),
    deliveriesPerSecond: round(expected / total, 1),
  };
}
