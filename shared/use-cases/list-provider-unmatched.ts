import { getProviderConnection } from '#domain/provider-connections.ts';
import type { listProviderUnmatchedEndpoint } from '#schemas/provider-connections.ts';
import { unmatchedProviderEvents } from '#store/unmatched-provider-events.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof listProviderUnmatchedEndpoint;

/**
 * 1. Read the connection (ProviderConnectionNotFound for another organization's).
 * 2. Read a page of its unmatched events, newest first (one Query).
 * 3. Return them with the cursor of the next page.
 *
 * GET /public/v1/provider-connections/{id}/unmatched; `outreach-admin provider unmatched`.
 */
export async function listProviderUnmatched(
  input: OperationInput<Endpoint>,
): Promise<OperationOutput<Endpoint>> {
  await getProviderConnection(input.orgId, input.path.id);
  const page = await unmatchedProviderEvents.list(input.orgId, input.path.id, {
    take: input.query.take,
    before: input.query.cursor,
  });
  return {
    data: page.records.map((record) => ({
      received_at: record.receivedAt,
      event_type: record.eventType,
      event_id: record.eventId,
      kind: record.kind,
      reason: record.reason,
      campaign_external_id: record.campaignExternalId,
      lead_email: record.leadEmail,
      lead_linkedin_url: record.leadLinkedinUrl,
    })),
    next: page.next,
  };
}
