import { describe, expect, it } from 'vitest';
import { providerClients } from '#providers/clients.ts';
import {
  type LeadToEnroll,
  ProviderApiError,
  type ProviderHttp,
  type ProviderRequest,
  type ProviderResponse,
} from '#providers/contract.ts';
import { statusError } from '#providers/responses.ts';

/** Every provider's client, as the enrollment consumer loads them. */
const PROVIDER_CLIENTS = await providerClients();

/**
 * The provider clients' pure parts: the status → error table they share, and
 * the requests each builds and how it reads canned answers, through a
 * recording ProviderHttp (no I/O). The clients against the emulators are in
 * test/integration/provider-clients.test.ts.
 */

const API_KEY = 'sk-test-SECRET-key-0123';
const CREDENTIALS = { apiKey: API_KEY };

const answer = (
  status: number,
  body: unknown = null,
  retryAfterSeconds: number | null = null,
): ProviderResponse => ({
  status,
  body,
  retryAfterSeconds,
});

/** A ProviderHttp that records each request and answers with `respond`. */
function recording(respond: (request: ProviderRequest, index: number) => ProviderResponse) {
  const requests: ProviderRequest[] = [];
  const http: ProviderHttp = async (request) => {
    requests.push(request);
    return respond(request, requests.length - 1);
  };
  return { http, requests };
}

function lead(overrides: Partial<LeadToEnroll> = {}): LeadToEnroll {
  return {
    ref: '1',
    email: 'jane.doe@example.com',
    firstName: 'Jane',
    lastName: 'Doe',
    companyName: 'Acme',
    companyDomain: 'acme.example',
    title: 'Controller',
    linkedinUrl: 'https://www.linkedin.com/in/jane-doe-example',
    variables: { pain_point: 'month-end close' },
    ...overrides,
  };
}

async function caught(promise: Promise<unknown>): Promise<ProviderApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
}

describe('status → error kind', () => {
  it.each([
    [429, 'rate-limited'],
    [500, 'unavailable'],
    [502, 'unavailable'],
    [503, 'unavailable'],
    [401, 'refused'],
    [403, 'refused'],
    [404, 'refused'],
    [400, 'refused'],
    [422, 'refused'],
  ] as const)('%i is %s', (status, kind) => {
    const error = statusError(answer(status, null, 7));
    expect(error?.kind).toBe(kind);
    expect(error?.status).toBe(status);
  });

  it('reads 2xx as success, a 429 with its Retry-After, and says what a bad key and a 404 are', () => {
    expect(statusError(answer(200))).toBeNull();
    expect(statusError(answer(204))).toBeNull();
    expect(statusError(answer(429, null, 12))?.retryAfterSeconds).toBe(12);
    expect(statusError(answer(401))?.message).toBe('the provider refused the API key');
    expect(statusError(answer(404))?.message).toBe('the provider campaign does not exist');
  });

  it.each(Object.values(PROVIDER_CLIENTS).map((client) => [client.provider, client] as const))(
    '%s: every failure of an add is a ProviderApiError that names neither the key nor the lead',
    async (_provider, client) => {
      for (const status of [401, 403, 404, 429, 500]) {
        const { http } = recording(() => answer(status, { message: `bad key ${API_KEY}` }, 3));
        const error = await caught(client.enroll(http, CREDENTIALS, '4242', [lead()]));
        expect(error.status).toBe(status);
        expect(error.message).not.toContain(API_KEY);
        expect(error.message).not.toContain('jane.doe@example.com');
        if (status === 429) expect(error).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 3 });
      }
    },
  );
});

describe('Smartlead', () => {
  const client = PROVIDER_CLIENTS.smartlead;

  it('adds the leads with their custom fields and Smartlead checks on, then reads each id back', async () => {
    const { http, requests } = recording((request) =>
      request.method === 'POST'
        ? answer(200, { ok: true, upload_count: 1, already_added_to_campaign: 0, invalid_email_count: 0 })
        : answer(200, {
            id: 2995276770,
            lead_campaign_data: [{ campaign_id: 4242, campaign_lead_map_id: 1 }],
          }),
    );

    const outcomes = await client.enroll(http, CREDENTIALS, '4242', [
      lead(),
      lead({ ref: '2', email: null }),
    ]);

    expect(outcomes).toEqual([
      { ref: '2', status: 'refused', reason: 'an email address is required' },
      { ref: '1', status: 'enrolled', leadId: '2995276770' },
    ]);
    expect(requests[0]).toEqual({
      method: 'POST',
      path: '/campaigns/4242/leads',
      query: { api_key: API_KEY },
      body: {
        lead_list: [
          {
            email: 'jane.doe@example.com',
            first_name: 'Jane',
            last_name: 'Doe',
            company_name: 'Acme',
            website: 'acme.example',
            linkedin_profile: 'https://www.linkedin.com/in/jane-doe-example',
            custom_fields: { job_title: 'Controller', pain_point: 'month-end close' },
          },
        ],
        settings: {
          ignore_global_block_list: false,
          ignore_unsubscribe_list: false,
          ignore_duplicate_leads_in_other_campaign: false,
        },
      },
    });
    expect(requests[1]).toEqual({
      method: 'GET',
      path: '/leads/',
      query: { api_key: API_KEY, email: 'jane.doe@example.com' },
    });
    expect(requests).toHaveLength(2);
  });

  it('explains a lead left out by what the read-back and the counts say', async () => {
    const leads = [
      lead({ ref: 'other', email: 'other@example.com' }),
      lead({ ref: 'bad', email: 'bad@example' }),
      lead({ ref: 'unsub', email: 'unsub@example.com' }),
    ];
    const { http } = recording((request) => {
      if (request.method === 'POST')
        return answer(200, { upload_count: 0, invalid_email_count: 1, invalid_emails: ['bad@example'] });
      if (request.query?.email === 'other@example.com')
        return answer(200, { id: 1, lead_campaign_data: [{ campaign_id: 9 }] });
      if (request.query?.email === 'unsub@example.com')
        return answer(200, { id: 2, is_unsubscribed: true, lead_campaign_data: [] });
      return answer(200, {});
    });

    expect(await client.enroll(http, CREDENTIALS, '4242', leads)).toEqual([
      { ref: 'other', status: 'refused', reason: 'already in another campaign at the provider' },
      { ref: 'bad', status: 'refused', reason: 'the provider refused the email address as invalid' },
      { ref: 'unsub', status: 'refused', reason: 'unsubscribed at the provider' },
    ]);
  });

  it('finds, pauses and replies as documented', async () => {
    const { http, requests } = recording((request) =>
      request.path === '/leads/'
        ? answer(200, { id: '77', lead_campaign_data: [{ campaign_id: '4242' }] })
        : answer(200, { ok: true }),
    );

    expect(await client.findEnrolled(http, CREDENTIALS, '4242', lead())).toBe('77');
    expect(await client.findEnrolled(http, CREDENTIALS, '4243', lead())).toBeNull();
    await client.stop(http, CREDENTIALS, '4242', { leadId: '77', email: null, linkedinUrl: null });
    const sent = await client.reply?.(
      http,
      CREDENTIALS,
      {
        campaignId: '4242',
        lead: { leadId: '77', email: null, linkedinUrl: null },
        replyThread: {
          email_stats_id: 'stats-1',
          reply_message_id: '<m@x>',
          reply_email_time: '2026-03-03T14:05:51Z',
        },
      },
      { subject: 'Re: hi', text: 'Thanks', html: '<p>Thanks</p>' },
    );

    expect(requests[2]).toEqual({
      method: 'POST',
      path: '/campaigns/4242/leads/77/pause',
      query: { api_key: API_KEY },
    });
    expect(requests[3]).toEqual({
      method: 'POST',
      path: '/campaigns/4242/reply-email-thread',
      query: { api_key: API_KEY },
      body: {
        email_stats_id: 'stats-1',
        reply_message_id: '<m@x>',
        reply_email_time: '2026-03-03T14:05:51Z',
        email_body: '<p>Thanks</p>',
      },
    });
    expect(sent).toEqual({ providerMessageId: null });
  });
});

describe('Instantly', () => {
  const client = PROVIDER_CLIENTS.instantly;
  const campaign = '8c7a1d52-3b1f-4e2a-9c55-6f0e2a1b9d41';

  it('adds in bulk, skipping leads of any campaign, and keeps the ids it answers', async () => {
    const { http, requests } = recording(() =>
      answer(200, {
        status: 'success',
        leads_uploaded: 1,
        created_leads: [{ id: 'lead-1', email: 'jane.doe@example.com', index: 0 }],
      }),
    );

    expect(await client.enroll(http, CREDENTIALS, campaign, [lead()])).toEqual([
      { ref: '1', status: 'enrolled', leadId: 'lead-1' },
    ]);
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/leads/add',
        headers: { Authorization: `Bearer ${API_KEY}` },
        body: {
          campaign_id: campaign,
          skip_if_in_workspace: false,
          skip_if_in_campaign: true,
          skip_if_in_list: false,
          leads: [
            {
              email: 'jane.doe@example.com',
              first_name: 'Jane',
              last_name: 'Doe',
              company_name: 'Acme',
              job_title: 'Controller',
              website: 'acme.example',
              custom_variables: {
                linkedin_url: 'https://www.linkedin.com/in/jane-doe-example',
                pain_point: 'month-end close',
              },
            },
          ],
        },
      },
    ]);
  });

  it('reads back a skipped lead: its id when in this campaign, a refusal when in another', async () => {
    const leads = [
      lead({ ref: 'here', email: 'here@example.com' }),
      lead({ ref: 'there', email: 'there@example.com' }),
    ];
    const { http, requests } = recording((request) => {
      if (request.path === '/leads/add') return answer(200, { created_leads: [], skipped_count: 2 });
      const body = request.body as { campaign?: string };
      return body.campaign
        ? answer(200, { items: [{ id: 'old-1', email: 'here@example.com', campaign }] })
        : answer(200, { items: [{ id: 'x-2', email: 'there@example.com', campaign: 'another' }] });
    });

    expect(await client.enroll(http, CREDENTIALS, campaign, leads)).toEqual([
      { ref: 'here', status: 'enrolled', leadId: 'old-1' },
      { ref: 'there', status: 'refused', reason: 'already in another campaign at the provider' },
    ]);
    expect(requests[1]?.body).toEqual({
      campaign,
      contacts: ['here@example.com', 'there@example.com'],
      limit: 100,
    });
    expect(requests[2]?.body).toEqual({ contacts: ['there@example.com'], limit: 100 });
  });

  it('deletes to stop and replies with the thread, keeping the id of the email sent', async () => {
    const { http, requests } = recording((request) =>
      request.method === 'DELETE' ? answer(404) : answer(200, { id: 'email-9' }),
    );

    await client.stop(http, CREDENTIALS, campaign, { leadId: 'lead-1', email: null, linkedinUrl: null });
    const sent = await client.reply?.(
      http,
      CREDENTIALS,
      {
        campaignId: campaign,
        lead: { leadId: 'lead-1', email: null, linkedinUrl: null },
        replyThread: { reply_to_uuid: 'email-1', eaccount: 'tom@northwind-mail.example' },
      },
      { subject: 'Re: hi', text: 'Thanks', html: '<p>Thanks</p>' },
    );

    expect(requests[0]).toMatchObject({ method: 'DELETE', path: '/leads/lead-1' });
    expect(requests[1]?.body).toEqual({
      reply_to_uuid: 'email-1',
      eaccount: 'tom@northwind-mail.example',
      subject: 'Re: hi',
      body: { text: 'Thanks', html: '<p>Thanks</p>' },
    });
    expect(sent).toEqual({ providerMessageId: 'email-9' });
  });

  it('refuses a reply whose thread lacks what the endpoint needs, without a request', async () => {
    const { http, requests } = recording(() => answer(200, {}));
    const error = await caught(
      client.reply!(
        http,
        CREDENTIALS,
        { campaignId: campaign, lead: { leadId: 'l', email: null, linkedinUrl: null }, replyThread: {} },
        { subject: 's', text: 't', html: 'h' },
      ),
    );
    expect(error.kind).toBe('refused');
    expect(requests).toHaveLength(0);
  });
});

describe('lemlist', () => {
  const client = PROVIDER_CLIENTS.lemlist;
  const basic = `Basic ${Buffer.from(`:${API_KEY}`).toString('base64')}`;

  it('adds one lead per request, deduplicated, variables as its own keys', async () => {
    const { http, requests } = recording(() =>
      answer(200, { _id: 'lea_1', campaignId: 'cam_1', isPaused: false }),
    );

    expect(await client.enroll(http, CREDENTIALS, 'cam_1', [lead()])).toEqual([
      { ref: '1', status: 'enrolled', leadId: 'lea_1' },
    ]);
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/campaigns/cam_1/leads/jane.doe%40example.com',
        query: { deduplicate: 'true' },
        headers: { Authorization: basic },
        body: {
          pain_point: 'month-end close',
          firstName: 'Jane',
          lastName: 'Doe',
          companyName: 'Acme',
          companyDomain: 'acme.example',
          linkedinUrl: 'https://www.linkedin.com/in/jane-doe-example',
          jobTitle: 'Controller',
        },
      },
    ]);
    expect(client.reply).toBeUndefined();
  });

  it('turns a refused add into the existing id (this campaign) or a per-lead refusal', async () => {
    const { http } = recording((request) => {
      if (request.method === 'POST') return answer(400, { message: 'Lead already exists' });
      // GET /leads/{email}?version=v2: an array, each item nesting its campaign.
      expect(request.query).toEqual({ version: 'v2' });
      return request.path.startsWith('/leads/here')
        ? answer(200, [{ _id: 'lea_here', campaign: { id: 'cam_1', name: 'Q1', status: 'running' } }])
        : answer(200, [{ _id: 'lea_there', campaign: { id: 'cam_2', name: 'Q2', status: 'running' } }]);
    });

    expect(
      await client.enroll(http, CREDENTIALS, 'cam_1', [
        lead({ ref: 'a', email: 'here@example.com' }),
        lead({ ref: 'b', email: 'there@example.com' }),
      ]),
    ).toEqual([
      { ref: 'a', status: 'enrolled', leadId: 'lea_here' },
      { ref: 'b', status: 'refused', reason: 'already in another campaign at the provider' },
    ]);
  });

  it('pauses the lead in that campaign only', async () => {
    const { http, requests } = recording(() => answer(200, {}));
    await client.stop(http, CREDENTIALS, 'cam_1', { leadId: 'lea_1', email: null, linkedinUrl: null });
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/leads/pause/lea_1',
        query: { campaignId: 'cam_1' },
        headers: { Authorization: basic },
      },
    ]);
  });
});

describe('HeyReach', () => {
  const client = PROVIDER_CLIENTS.heyreach;
  const header = { 'X-API-KEY': API_KEY };

  it('adds account/lead pairs to the numeric campaign; a lead without a LinkedIn URL is refused', async () => {
    const { http, requests } = recording((request) =>
      request.path === '/campaign/GetById'
        ? answer(200, { id: 274079, status: 'IN_PROGRESS', campaignAccountIds: [113298] })
        : answer(200, { addedLeadsCount: 1, updatedLeadsCount: 0, failedLeadsCount: 0 }),
    );

    expect(
      await client.enroll(http, CREDENTIALS, '274079', [lead(), lead({ ref: '2', linkedinUrl: null })]),
    ).toEqual([
      { ref: '2', status: 'refused', reason: 'a LinkedIn profile URL is required' },
      { ref: '1', status: 'enrolled', leadId: 'https://www.linkedin.com/in/jane-doe-example' },
    ]);
    expect(requests).toEqual([
      // The campaign first: whether it runs, and its senders.
      { method: 'GET', path: '/campaign/GetById', query: { campaignId: '274079' }, headers: header },
      {
        method: 'POST',
        path: '/campaign/AddLeadsToCampaignV2',
        headers: header,
        body: {
          campaignId: 274079,
          accountLeadPairs: [
            {
              linkedInAccountId: 113298,
              lead: {
                profileUrl: 'https://www.linkedin.com/in/jane-doe-example',
                firstName: 'Jane',
                lastName: 'Doe',
                companyName: 'Acme',
                position: 'Controller',
                emailAddress: 'jane.doe@example.com',
                customUserFields: [{ name: 'pain_point', value: 'month-end close' }],
              },
            },
          ],
        },
      },
    ]);
  });

  it('looks up each lead when some failed, and refuses a campaign id HeyReach cannot have', async () => {
    const { http } = recording((request) => {
      if (request.path === '/campaign/GetById')
        return answer(200, { id: 274079, status: 'IN_PROGRESS', campaignAccountIds: [113298] });
      if (request.path === '/campaign/AddLeadsToCampaignV2')
        return answer(200, { addedLeadsCount: 1, failedLeadsCount: 1 });
      const { profileUrl } = request.body as { profileUrl: string };
      return answer(200, { items: profileUrl.endsWith('/ok') ? [{ campaignId: 274079 }] : [] });
    });
    expect(
      await client.enroll(http, CREDENTIALS, '274079', [
        lead({ ref: 'ok', linkedinUrl: 'https://www.linkedin.com/in/ok' }),
        lead({ ref: 'ko', linkedinUrl: 'https://www.linkedin.com/in/ko' }),
      ]),
    ).toEqual([
      { ref: 'ok', status: 'enrolled', leadId: 'https://www.linkedin.com/in/ok' },
      { ref: 'ko', status: 'refused', reason: 'the provider could not add the lead' },
    ]);
    const error = await caught(client.enroll(http, CREDENTIALS, 'cam_x', [lead()]));
    expect(error).toMatchObject({ kind: 'refused', message: 'the provider campaign does not exist' });
  });

  it('stops by the lead URL and sends the reply in the conversation', async () => {
    const { http, requests } = recording(() => answer(200, null));
    const enrolled = {
      leadId: 'https://www.linkedin.com/in/jane',
      email: null,
      linkedinUrl: 'https://www.linkedin.com/in/jane',
    };
    await client.stop(http, CREDENTIALS, '274079', enrolled);
    await client.reply?.(
      http,
      CREDENTIALS,
      {
        campaignId: '274079',
        lead: enrolled,
        replyThread: { conversationId: 'conv-1', linkedInAccountId: '113298' },
      },
      { subject: 'Re', text: 'Thanks', html: '<p>Thanks</p>' },
    );
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/campaign/StopLeadInCampaign',
        headers: header,
        body: { campaignId: 274079, leadUrl: 'https://www.linkedin.com/in/jane' },
      },
      {
        method: 'POST',
        path: '/inbox/SendMessage',
        headers: header,
        body: { message: 'Thanks', subject: 'Re', conversationId: 'conv-1', linkedInAccountId: 113298 },
      },
    ]);
  });
});
