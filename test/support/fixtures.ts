import type { ImportDocument } from '#schemas/import.ts';

type DocumentInput = { [K in keyof ImportDocument]?: unknown[] };

/**
 * A small import document: two campaigns (one with an email and a LinkedIn
 * sequence over two providers), three accounts, four contacts and assignments
 * in several states, messages and events. Tests extend or override sections.
 */
export function smallDocument(overrides: DocumentInput = {}): DocumentInput {
  return {
    campaigns: [
      {
        id: 101,
        name: 'Fintech CFOs',
        signals: ['hiring', 'funding'],
        created_at: '2026-04-01T09:00:00.000Z',
        sequences: [
          {
            id: 201,
            provider: 'smartlead',
            channel: 'email',
            steps: [
              { type: 'email', variants: [{ subject: 'Hi', body: 'Hello {{first_name}}' }] },
              { type: 'email', variants: [{ subject: 'Re: Hi', body: 'Following up' }] },
            ],
          },
          {
            id: 202,
            provider: 'heyreach',
            channel: 'linkedin',
            steps: [{ type: 'linkedin_connect', variants: [{ body: 'Let us connect' }] }],
          },
        ],
      },
      {
        id: 102,
        name: 'Retail Ops',
        signals: ['expansion'],
        created_at: '2026-04-02T09:00:00.000Z',
        sequences: [
          {
            id: 203,
            provider: 'instantly',
            channel: 'email',
            steps: [{ type: 'email', variants: [{ subject: 'Ops', body: 'Hey' }] }],
          },
        ],
      },
    ],
    accounts: [
      {
        id: 301,
        name: 'Acme',
        domain: 'https://www.Acme.com/',
        'linkedin-url': 'https://linkedin.com/company/acme',
        campaigns: [
          {
            campaign_id: 101,
            score: 0.9,
            signals: [
              { name: 'hiring', updated: '2026-04-01T00:00:00.000Z', freshness: 'fresh', score: 0.8 },
              { name: 'expansion', updated: null, freshness: null, score: 0.3 },
            ],
          },
        ],
      },
      {
        id: 302,
        domain: 'globex.io',
        campaigns: [
          { campaign_id: 101, score: 0.5, signals: [] },
          {
            campaign_id: 102,
            score: 0.7,
            signals: [{ name: 'expansion', updated: null, freshness: null, score: 0.7 }],
          },
        ],
      },
      { id: 303, domain: 'initech.com', campaigns: [{ campaign_id: 102, score: 0.2, signals: [] }] },
    ],
    contacts: [
      { id: 401, email: 'Ann@Acme.com', first_name: 'Ann', last_name: 'Lee', company_domain: 'acme.com' },
      { id: 402, email: 'bob@globex.io', first_name: 'Bob' },
      { id: 403, email: 'cy@initech.com' },
      { id: 404, email: null, linkedin_url: 'https://linkedin.com/in/dee', full_name: 'Dee Ray' },
    ],
    assignments: [
      {
        id: 501,
        campaign_id: 101,
        sequence_id: 201,
        contact_id: 401,
        status: 'scheduled',
        created_at: '2026-04-03T00:00:00.000Z',
        approved_at: '2026-04-03T01:00:00.000Z',
      },
      {
        id: 502,
        campaign_id: 101,
        sequence_id: 201,
        contact_id: 402,
        status: 'pending-approval',
        created_at: '2026-04-04T00:00:00.000Z',
      },
      {
        id: 503,
        campaign_id: 102,
        sequence_id: 203,
        contact_id: 403,
        status: 'in-progress',
        created_at: '2026-04-05T00:00:00.000Z',
      },
      {
        id: 504,
        campaign_id: 101,
        sequence_id: 202,
        contact_id: 404,
        status: 'scheduled',
        created_at: '2026-04-06T00:00:00.000Z',
      },
    ],
    messages: [
      {
        id: 601,
        assignment_id: 503,
        type: 'sent',
        step_type: 'email',
        step_index: 0,
        variant_index: 0,
        subject: 'Ops',
        body: 'Hey',
        open_count: 2,
        sender_email: 'rep@seller.com',
        created_at: '2026-04-05T10:00:00.000Z',
      },
    ],
    events: [
      {
        id: 'evt-1',
        assignment_id: 501,
        type: 'message_sent',
        at: '2026-04-07T10:00:00.000Z',
        message: {
          id: 602,
          step_type: 'email',
          step_index: 0,
          variant_index: 0,
          subject: 'Hi',
          body: 'Hello Ann',
          sender_email: 'rep@seller.com',
        },
      },
      { id: 'evt-2', assignment_id: 501, type: 'opened', at: '2026-04-07T11:00:00.000Z', message_id: 602 },
      {
        id: 'evt-3',
        assignment_id: 501,
        type: 'reply_received',
        at: '2026-04-07T12:00:00.000Z',
        response_type: 'positive',
        message: { id: 603, body: 'Interested!', sender_email: 'ann@acme.com' },
      },
      { id: 'evt-4', assignment_id: 503, type: 'bounced', at: '2026-04-08T00:00:00.000Z' },
    ],
    jobs: [
      {
        id: 'job-1',
        domain: 'acme.com',
        title: 'CFO',
        url: 'https://acme.com/jobs/1',
        first_seen_at: '2026-04-01T00:00:00.000Z',
        last_seen_at: '2026-04-05T00:00:00.000Z',
      },
    ],
    exclusions: [{ domain: 'initech.com' }],
    ...overrides,
  };
}
