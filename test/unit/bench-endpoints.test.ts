import { describe, expect, it } from 'vitest';
import { routes } from '#definitions/routes.ts';
import { type BenchFixtures, endpointSpecs, type SequenceLinkTarget } from '../../bench/endpoints.ts';

/*
 * The bench measures every route of the manifest (issue 36: every read
 * endpoint against its floor, every function's init plus first request,
 * which needs an event of the function during the run). The specs are built
 * from fixtures alone, so they are checked here without a stack.
 */

const link = (index: number): SequenceLinkTarget => ({
  sequenceId: 900 + index,
  connectionId: 80 + (index % 8),
  campaignId: `campaign-${index}`,
});
const member = { cookie: 'outreach_session=x', csrfToken: 'csrf' };

const fixtures: BenchFixtures = {
  apiUrl: 'http://127.0.0.1:3000',
  receiverUrl: 'http://127.0.0.1:3001',
  demo: {
    orgId: 1,
    apiKey: 'demo-key',
    campaignId: 11,
    emailSequenceId: 12,
    accountId: 13,
    accountDomain: 'acme.com',
    jobDomain: 'acme.com',
    replyAssignmentIds: [21, 22],
  },
  hooks: { apiKey: 'hooks-key', webhookIds: [31, 32], member },
  providers: {
    account: { provider: 'instantly', baseUrl: 'http://127.0.0.1:3002', apiKey: 'provider-key' },
    demoConnectionId: 41,
    demoWebhook: { organization: 1, connection: 41, token: 'token' },
    campaignId: 'campaign',
    apiKey: 'providers-key',
    connections: [
      { id: 42, apiKey: 'provider-key-0' },
      { id: 43, apiKey: 'provider-key-1' },
    ],
  },
  links: {
    apiKey: 'links-key',
    read: [link(0), link(1)],
    unlinked: [link(2), link(3)],
    sustained: [link(4)],
  },
  creators: [{ apiKey: 'creator-key', providerKey: 'creator-provider-key' }],
  oauth: { clientId: 'client', clientSecret: 'secret', redirectUri: 'https://a.example/cb', mcpToken: 't' },
  docsAssetPath: '/docs/swagger-ui.css',
  member,
};

/** A route's path template as a pattern of the paths it serves. */
const pattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`);

describe('the bench endpoints', () => {
  const specs = endpointSpecs(fixtures, 'unit');

  it('has a spec for every route of the manifest', () => {
    const benchmarked = new Set(specs.map((spec) => spec.route));
    expect(routes.map((route) => route.name).filter((name) => !benchmarked.has(name))).toEqual([]);
  });

  it.each(specs.map((spec) => [spec.name, spec] as const))(
    "%s: its request is the route's",
    (_name, spec) => {
      const route = routes.find((candidate) => candidate.name === spec.route)!;
      const request = spec.next();
      expect(request.path).toMatch(pattern(route.path));
      if (route.method !== 'ANY') expect(request.method).toBe(route.method);
    },
  );
});
