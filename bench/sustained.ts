import type { AutocannonRequest } from 'autocannon';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { BenchFixtures, EndpointSpec } from './endpoints.ts';
import { type LoadResult, round, runLoad } from './load.ts';
import { collectGarbage, type MemorySample, startSampler } from './machine.ts';

/**
 * The sustained run: a fixed time of mixed traffic over every endpoint, each
 * connection cycling through all of them (reads and writes, a subscription
 * created and deleted again in every pass, a sequence linked and unlinked),
 * with memory sampled throughout. An endpoint a limit allows only a few
 * requests of (client registrations) is left out of the mix.
 * What must hold: no errors, no unexpected status, and memory that levels
 * off rather than climbing.
 */

export interface SustainedResult {
  durationSeconds: number;
  endpointsInTheMix: number;
  load: LoadResult;
  /** Per endpoint: requests and the statuses that were not the expected one. */
  perEndpoint: { name: string; requests: number; unexpected: Record<string, number> }[];
  memory: {
    sampleEverySeconds: number;
    samples: MemorySample[];
    /** After a full collection before and after the run: live heap, not garbage. */
    heapUsedAfterGcMiB: { start: number; end: number };
    rssMiB: { start: number; peak: number; end: number };
    heapUsedMiB: { start: number; peak: number; end: number };
    javaRssMiB: { start: number | null; peak: number | null; end: number | null };
  };
}

const mib = (bytes: number) => round(bytes / 2 ** 20, 1);

export async function sustainedLoad(
  fixtures: BenchFixtures,
  specs: EndpointSpec[],
  options: {
    durationSeconds: number;
    sampleEverySeconds: number;
    javaPid: number | undefined;
    /** Called at every sample (the bench empties the SMTP sink's in-memory copy of received mail). */
    onSample?: () => void;
  },
): Promise<SustainedResult> {
  // Creations are paired with deletions within a pass, in an organization of their own (each connection
  // has at most one subscription and one provider connection of its own at a time, within the limits).
  const { orgId } = await createOrganization('Bench Sustained');
  const { apiKey } = await createApiKey(orgId);
  const paired = [
    'create-webhook',
    'delete-webhook',
    'create-provider-connection',
    'delete-provider-connection',
    'delete-sequence-provider-link',
  ];
  const entries: { name: string; expected: number; request: AutocannonRequest }[] = specs
    .filter((spec) => !paired.includes(spec.route) && spec.sustained !== false)
    .map((spec) => ({
      name: spec.name,
      expected: spec.expectedStatus ?? 200,
      request: {
        setupRequest: (request) => ({ ...request, ...spec.next() }),
        onResponse: (status, body) => spec.onResponse?.(status, body),
      },
    }));
  entries.unshift({
    name: 'POST /public/v1/webhooks',
    expected: 200,
    request: {
      setupRequest: (request) => ({
        ...request,
        method: 'POST',
        path: '/public/v1/webhooks',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${fixtures.receiverUrl}/bench/sustained`, events: ['first_touch'] }),
      }),
      onResponse: (status, body, context) => {
        if (status === 200) context.webhookId = (JSON.parse(body) as { id: number }).id;
      },
    },
  });
  entries.unshift({
    name: 'POST /public/v1/provider-connections',
    expected: 200,
    request: {
      setupRequest: (request) => ({
        ...request,
        method: 'POST',
        path: '/public/v1/provider-connections',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        // Creating a connection asks the provider whether it takes the key: the emulator's workspace,
        // never the real provider (unreachable from the bench, a 502).
        body: JSON.stringify({
          provider: fixtures.providers.account.provider,
          api_key: fixtures.providers.account.apiKey,
          base_url: fixtures.providers.account.baseUrl,
        }),
      }),
      onResponse: (status, body, context) => {
        if (status === 200) context.providerConnectionId = (JSON.parse(body) as { id: number }).id;
      },
    },
  });
  // Each connection links a sequence of its own in a pass and unlinks it again (the others stay linked).
  // autocannon gives each pass a fresh context, so a pass takes a sequence from the free ones at its PUT and
  // gives it back after its DELETE: two connections never hold the same sequence (a counter per pass let a
  // connection whose pass ran ahead unlink the sequence another had just linked, a 404 at that one's DELETE).
  const { links } = fixtures;
  type SustainedLink = (typeof links.sustained)[number];
  const freeLinks = [...links.sustained];
  const linkOf = (context: Record<string, unknown>): SustainedLink => {
    if (context.link === undefined) {
      const link = freeLinks.shift();
      if (!link) throw new Error('Sustained load: more connections than sequences to link');
      context.link = link;
    }
    return context.link as SustainedLink;
  };
  entries.unshift({
    name: 'PUT /public/v1/sequences/{sequenceId}/provider-link',
    expected: 200,
    request: {
      setupRequest: (request, context) => {
        const link = linkOf(context);
        return {
          ...request,
          method: 'PUT',
          path: `/public/v1/sequences/${link.sequenceId}/provider-link`,
          headers: { 'x-api-key': links.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ connection_id: link.connectionId, provider_campaign_id: link.campaignId }),
        };
      },
    },
  });
  entries.push({
    name: 'DELETE /public/v1/sequences/{sequenceId}/provider-link',
    expected: 200,
    request: {
      setupRequest: (request, context) => ({
        ...request,
        method: 'DELETE',
        path: `/public/v1/sequences/${linkOf(context).sequenceId}/provider-link`,
        headers: { 'x-api-key': links.apiKey },
      }),
      onResponse: (_status, _body, context) => {
        freeLinks.push(context.link as SustainedLink);
        context.link = undefined;
      },
    },
  });
  entries.push({
    name: 'DELETE /public/v1/provider-connections/{id}',
    expected: 200,
    request: {
      setupRequest: (request, context) => ({
        ...request,
        method: 'DELETE',
        path: `/public/v1/provider-connections/${String(context.providerConnectionId ?? 0)}`,
        headers: { 'x-api-key': apiKey },
      }),
    },
  });
  entries.push({
    name: 'DELETE /public/v1/webhooks/{id}',
    expected: 200,
    request: {
      setupRequest: (request, context) => ({
        ...request,
        method: 'DELETE',
        path: `/public/v1/webhooks/${String(context.webhookId ?? 0)}`,
        headers: { 'x-api-key': apiKey },
      }),
    },
  });

  const perEndpoint = entries.map((entry) => ({
    name: entry.name,
    requests: 0,
    unexpected: {} as Record<string, number>,
  }));
  const requests = entries.map(
    (entry, index): AutocannonRequest => ({
      ...entry.request,
      onResponse: (status, body, context, headers) => {
        const tally = perEndpoint[index]!;
        tally.requests += 1;
        if (status !== entry.expected) tally.unexpected[status] = (tally.unexpected[status] ?? 0) + 1;
        entry.request.onResponse?.(status, body, context, headers);
      },
    }),
  );

  collectGarbage();
  const heapAtStart = mib(process.memoryUsage().heapUsed);
  const sampler = startSampler(options.sampleEverySeconds * 1000, options.javaPid, options.onSample);
  const { result: load } = await runLoad({
    baseUrl: fixtures.apiUrl,
    requests,
    duration: options.durationSeconds,
    expectedStatus: (status, index) => status === entries[index]!.expected,
  });
  const samples = sampler.stop();
  collectGarbage();
  const heapAtEnd = mib(process.memoryUsage().heapUsed);
  const javaValues = samples.flatMap((sample) => (sample.javaRss === null ? [] : [sample.javaRss]));
  return {
    durationSeconds: options.durationSeconds,
    endpointsInTheMix: entries.length,
    load,
    perEndpoint,
    memory: {
      sampleEverySeconds: options.sampleEverySeconds,
      samples,
      heapUsedAfterGcMiB: { start: heapAtStart, end: heapAtEnd },
      rssMiB: {
        start: samples[0]!.rss,
        peak: Math.max(...samples.map((sample) => sample.rss)),
        end: samples.at(-1)!.rss,
      },
      heapUsedMiB: {
        start: samples[0]!.heapUsed,
        peak: Math.max(...samples.map((sample) => sample.heapUsed)),
        end: samples.at(-1)!.heapUsed,
      },
      javaRssMiB: {
        start: javaValues[0] ?? null,
        peak: javaValues.length > 0 ? Math.max(...javaValues) : null,
        end: javaValues.at(-1) ?? null,
      },
    },
  };
}
