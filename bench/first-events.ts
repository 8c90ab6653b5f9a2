import { MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import type { RequestTarget } from '../infra/local/route-requests.ts';
import type { SequenceLinkTarget } from './endpoints.ts';

/**
 * The init plus first request measurement (bench/bundles.ts) replays each
 * function's first event of the bundles section's run (`--only bundles`: the
 * demo, then one request per endpoint) in fresh processes, nine times over.
 * Most replay as they were; a create or a delete does not: after a few
 * replays the first subscription's organization is full (409), and from the
 * first replay on the first deleted subscription or connection is gone
 * (404), the first unlinked sequence has no link (404), and the first
 * registration's address has used its hour's share (429): the error path
 * is not the function's work. Before each
 * replay of those, what it acts on is made again through the API, in the
 * event's own organization (its API key), and a delete's event is pointed at
 * the new item; a registration comes from an address of its own.
 */

/** An HTTP event as the local gateway builds it (the fields a replay changes). */
interface HttpEvent {
  path: string;
  headers: Record<string, string>;
  pathParameters: Record<string, string> | null;
  requestContext: { path: string; identity: { sourceIp: string } };
}

export type EventPreparer = (event: unknown) => Promise<unknown>;

/**
 * `account`: the emulator workspace whose key the bench's connections are made with, and `links` the
 * sequences the bench links, with their connection and campaign (its fixtures).
 */
export function replayPreparers(
  apiUrl: string,
  account: RequestTarget['providerAccount'],
  links: readonly SequenceLinkTarget[],
): Record<string, EventPreparer> {
  let registrations = 0;
  const api = async (apiKey: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl}/public/v1${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(
        `Preparing a replay: ${method} ${path} answered ${response.status} ${text.slice(0, 200)}`,
      );
    return JSON.parse(text) as Record<string, unknown>;
  };
  const keyOf = (event: HttpEvent) => {
    const apiKey = event.headers['x-api-key'];
    if (!apiKey) throw new Error('Preparing a replay: the event has no x-api-key header');
    return apiKey;
  };
  /** The event with its `{id}` (the last segment of its path) replaced. */
  const pointedAt = (event: HttpEvent, id: number): HttpEvent => {
    const old = event.pathParameters?.id;
    if (old === undefined) throw new Error('Preparing a replay: the event has no id path parameter');
    const swap = (path: string) => path.replace(new RegExp(`/${old}$`), `/${id}`);
    return {
      ...event,
      path: swap(event.path),
      pathParameters: { ...event.pathParameters, id: String(id) },
      requestContext: { ...event.requestContext, path: swap(event.requestContext.path) },
    };
  };
  return {
    // Room for one more subscription: when the organization is full, its newest goes, which is the
    // subscription the previous replay made (the bench's organizations keep room for one). Deleting the
    // newest when there was room already took a subscription that other functions' events point at.
    'create-webhook': async (event) => {
      const apiKey = keyOf(event as HttpEvent);
      const { webhooks } = (await api(apiKey, 'GET', '/webhooks')) as { webhooks: { id: number }[] };
      const newest = webhooks.at(-1);
      if (newest && webhooks.length >= MAX_WEBHOOKS_PER_ORGANIZATION)
        await api(apiKey, 'DELETE', `/webhooks/${newest.id}`);
      return event;
    },
    'delete-webhook': async (event) => {
      const apiKey = keyOf(event as HttpEvent);
      const created = await api(apiKey, 'POST', '/webhooks', {
        url: 'http://127.0.0.1/bench/first-request',
        events: ['first_touch'],
      });
      return pointedAt(event as HttpEvent, created.id as number);
    },
    'delete-provider-connection': async (event) => {
      const apiKey = keyOf(event as HttpEvent);
      const created = await api(apiKey, 'POST', '/provider-connections', {
        provider: account.provider,
        api_key: account.apiKey,
        base_url: account.baseUrl,
      });
      return pointedAt(event as HttpEvent, created.id as number);
    },
    // The sequence is linked again to the campaign it was linked to.
    'delete-sequence-provider-link': async (event) => {
      const sequenceId = Number((event as HttpEvent).pathParameters?.sequenceId);
      const link = links.find((target) => target.sequenceId === sequenceId);
      if (!link) throw new Error(`Preparing a replay: sequence ${sequenceId} is none the bench links`);
      await api(keyOf(event as HttpEvent), 'PUT', `/sequences/${sequenceId}/provider-link`, {
        connection_id: link.connectionId,
        provider_campaign_id: link.campaignId,
      });
      return event;
    },
    // An address of the documentation range (RFC 5737) per replay: its first registration of the hour.
    'oauth-register': async (event) => {
      const http = event as HttpEvent;
      registrations += 1;
      const sourceIp = `198.51.100.${registrations}`;
      return {
        ...http,
        requestContext: { ...http.requestContext, identity: { ...http.requestContext.identity, sourceIp } },
      };
    },
  };
}
