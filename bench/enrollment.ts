import { applyImport, validateImport } from '#admin/import.ts';
import { PROVIDERS } from '#definitions/providers.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import type { Provider } from '#schemas/import.ts';
import { allocateId } from '#store/ids.ts';
import { round } from './load.ts';

/**
 * Enrollment at the providers, end to end on the local stack and its provider
 * emulators (infra/local/provider-emulators/, manual playback): per provider,
 * an organization's campaign whose sequence is linked to an emulator campaign
 * gets a raw push of N contacts with `triggerIntake: true`, timed from the
 * push until every assignment's enrollment is `enrolled` (read through
 * GET /public/v1/campaigns/{id}/contacts). The emulator's request log gives
 * the provider requests the enrollment took. The outbound client paces each
 * API key below the documented limit (each provider's shared/providers/<provider>/facts.ts),
 * and that pacing bounds enrollments/s: Smartlead adds a batch and then reads
 * each lead's id back one request per lead, at about a request a second.
 *
 * Part of `npm run bench`; on its own: `npm run bench -- --only enrollment`.
 * BENCH_ENROLLMENTS sets N: one number for every provider (`50`), or per
 * provider (`smartlead=10,lemlist=100`); the defaults are in `DEFAULT_N`.
 */

export const ENROLLMENT_PROVIDERS: readonly Provider[] = PROVIDERS;

const CHANNEL: Record<Provider, 'email' | 'linkedin'> = {
  smartlead: 'email',
  instantly: 'email',
  lemlist: 'email',
  heyreach: 'linkedin',
};

/** Smartlead is paced to about 0.5 enrollments/s, so it gets a small N. */
const DEFAULT_N: Record<Provider, number> = { smartlead: 20, instantly: 200, lemlist: 200, heyreach: 200 };

/** N per provider from BENCH_ENROLLMENTS (see above). */
export function enrollmentCounts(setting = process.env.BENCH_ENROLLMENTS): Record<Provider, number> {
  const counts = { ...DEFAULT_N };
  const text = setting?.trim();
  if (!text) return counts;
  if (/^\d+$/.test(text)) {
    for (const provider of ENROLLMENT_PROVIDERS) counts[provider] = Number(text);
    return counts;
  }
  for (const part of text.split(',')) {
    const [name, value] = part.split('=').map((each) => each.trim());
    if (!ENROLLMENT_PROVIDERS.includes(name as Provider) || !/^\d+$/.test(value ?? ''))
      throw new Error(`BENCH_ENROLLMENTS: "${part}" is not <provider>=<count>`);
    counts[name as Provider] = Number(value);
  }
  return counts;
}

export interface EnrollmentRow {
  provider: Provider;
  /** Contacts pushed (and enrollments awaited). */
  contacts: number;
  enrolled: number;
  failed: number;
  /** Push sent to the last assignment seen `enrolled`. */
  seconds: number;
  enrollmentsPerSecond: number;
  /** API requests the emulator received for this key (its control API not counted). */
  providerRequests: number;
  providerRequestsPer1000: number;
  /** The emulator's answers by status, e.g. {"200": 21}. */
  statuses: Record<string, number>;
  /** The documented limit and the pacing interval it gives: ceil(perMs / (requests − 1)) ms. */
  rateLimit: { requests: number; perMs: number };
  pacingMs: number;
  maxLeadsPerRequest: number;
}

export interface EnrollmentThroughput {
  rows: EnrollmentRow[];
}

interface EmulatorRequest {
  kind?: 'api' | 'webhook';
  method: string;
  path: string;
  status: number;
  at: string;
}

interface CampaignContact {
  assignment_id: number;
  enrollment: { status: string; error: string | null } | null;
}

const pacingOf = (provider: Provider) => {
  const { requests, perMs } = PROVIDER_FACTS[provider].rateLimit;
  return Math.ceil(perMs / (requests - 1));
};

export async function measureEnrollment(
  apiUrl: string,
  providerApiUrls: Record<Provider, string>,
  options: {
    runId: string;
    counts?: Record<Provider, number>;
    log?: (message: string) => void;
  },
): Promise<EnrollmentThroughput> {
  const counts = options.counts ?? enrollmentCounts();
  const { orgId } = await createOrganization('Bench Enrollment');
  const { apiKey } = await createApiKey(orgId);
  const ids = {} as Record<Provider, { campaignId: number; sequenceId: number }>;
  for (const provider of ENROLLMENT_PROVIDERS)
    ids[provider] = { campaignId: await allocateId('campaign'), sequenceId: await allocateId('sequence') };
  const document = validateImport({
    campaigns: ENROLLMENT_PROVIDERS.map((provider) => ({
      id: ids[provider].campaignId,
      name: `Enrolled through ${provider}`,
      sequences: [
        {
          id: ids[provider].sequenceId,
          provider,
          channel: CHANNEL[provider],
          steps: [
            {
              type: CHANNEL[provider] === 'email' ? 'email' : 'linkedin_message',
              variants: [{ subject: 'Hi {{opener}}', body: 'Hello' }],
            },
          ],
        },
      ],
    })),
  });
  if (!document.ok) throw new Error(JSON.stringify(document.errors.slice(0, 3)));
  await applyImport(orgId, document.document);

  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl}/public/v1${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 200)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const emulator = async (provider: Provider, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(new URL(`/_emulator/${path}`, providerApiUrls[provider]), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`emulator ${provider} ${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  /** Every assignment's enrollment, paging through the campaign's contacts. */
  const enrollments = async (campaignId: number) => {
    const found = new Map<number, CampaignContact['enrollment']>();
    for (let skip = 0; ; skip += 100) {
      const page = await call('GET', `/campaigns/${campaignId}/contacts?take=100&skip=${skip}`);
      const data = page.data as CampaignContact[];
      for (const each of data) found.set(each.assignment_id, each.enrollment);
      if (data.length < 100) return found;
    }
  };

  const rows: EnrollmentRow[] = [];
  for (const provider of ENROLLMENT_PROVIDERS) {
    const n = counts[provider];
    if (n <= 0) continue;
    const workspaceKey = `bench-${provider}-${options.runId}`;
    await emulator(provider, 'POST', 'workspaces', { apiKey: workspaceKey });
    const connection = await call('POST', '/provider-connections', {
      provider,
      api_key: workspaceKey,
      base_url: providerApiUrls[provider],
    });
    const external = await emulator(provider, 'POST', 'campaigns', {
      apiKey: workspaceKey,
      name: `Bench ${provider}`,
    });
    await call('PUT', `/sequences/${ids[provider].sequenceId}/provider-link`, {
      connection_id: connection.id,
      provider_campaign_id: String(external.id),
    });

    const pacingMs = pacingOf(provider);
    const { maxLeadsPerRequest } = PROVIDER_FACTS[provider];
    options.log?.(`enrollment at ${provider}: ${n} contacts (paced at ${pacingMs} ms a request)`);
    const contacts = Array.from({ length: n }, (_, index) => ({
      email: `lead${index}.${options.runId}@${provider}-bench.example`,
      firstName: `Lead${index}`,
      lastName: 'Bench',
      companyName: `Company ${index}`,
      linkedinUrl: `https://www.linkedin.com/in/bench-${provider}-${options.runId}-${index}`,
      variables: { opener: `Hi ${index}` },
    }));
    // A generous bound: the requests the pacing allows, three times over, and a minute.
    const limitMs = 60_000 + 3 * pacingMs * (Math.ceil(n / maxLeadsPerRequest) + n);
    const started = performance.now();
    const pushed = await call('POST', `/campaigns/${ids[provider].campaignId}/raw/contacts`, {
      sequenceId: ids[provider].sequenceId,
      triggerIntake: true,
      contacts,
    });
    const assignmentIds = pushed.assignmentIds as number[];
    if (assignmentIds.length !== n)
      throw new Error(`${provider}: pushed ${n}, ${assignmentIds.length} assignments`);
    let enrolled = 0;
    let failed = 0;
    let finished = 0;
    for (;;) {
      const seen = await enrollments(ids[provider].campaignId);
      const now = performance.now();
      const statuses = assignmentIds.map((id) => seen.get(id)?.status ?? 'none');
      enrolled = statuses.filter((status) => status === 'enrolled').length;
      failed = statuses.filter((status) => status === 'failed').length;
      if (enrolled + failed === n) {
        finished = now;
        break;
      }
      if (now - started > limitMs)
        throw new Error(`${provider}: ${enrolled} of ${n} enrolled (${failed} failed) after ${limitMs} ms`);
      await new Promise((done) => setTimeout(done, 200));
    }
    if (failed > 0) {
      const errors = [...(await enrollments(ids[provider].campaignId)).values()]
        .filter((each) => each?.status === 'failed')
        .map((each) => each?.error);
      options.log?.(`${provider}: ${failed} failed: ${[...new Set(errors)].slice(0, 3).join('; ')}`);
    }
    const seconds = (finished - started) / 1000;
    const log = await emulator(provider, 'GET', `requests?apiKey=${encodeURIComponent(workspaceKey)}`);
    const requests = (log.requests as EmulatorRequest[]).filter(
      (request) => request.kind !== 'webhook' && !request.path.startsWith('/_emulator'),
    );
    const statuses: Record<string, number> = {};
    for (const request of requests) statuses[request.status] = (statuses[request.status] ?? 0) + 1;
    rows.push({
      provider,
      contacts: n,
      enrolled,
      failed,
      seconds: round(seconds),
      enrollmentsPerSecond: round(enrolled / seconds, 2),
      providerRequests: requests.length,
      providerRequestsPer1000: round((requests.length * 1000) / n, 0),
      statuses,
      rateLimit: PROVIDER_FACTS[provider].rateLimit,
      pacingMs,
      maxLeadsPerRequest,
    });
  }
  return { rows };
}
