import { describe, expect, it } from 'vitest';
import { planBulkImport } from '#domain/bulk-import.ts';
import { keys } from '#store/keys.ts';
import { validImport } from '../support/import.ts';

/*
 * When an assignment counts in its campaign's positive replies
 * (`positiveReplied`, `statPositiveReplied`; docs/decisions.md, Positive
 * replies), through the very write builders of live events and history
 * (eventWrites, historyChunkWrites), replayed in memory by the import's bulk
 * planner: every item and counter comes out as the transactions would leave
 * them (the integration tests compare both paths against DynamoDB Local).
 *
 *   campaign 101: sequence 201 (smartlead, email)
 *   one contact and one in-progress assignment per case, 501 upwards
 */

const ORG = 7;
const AT = '2026-05-01T10:00:00.000Z';

/** A case: what happens to its assignment, as the document's history messages and events. */
interface Case {
  name: string;
  messages?: { response_type: string | null; type?: 'received' | 'sent' }[];
  events: (
    | { type: 'reply_received'; response_type?: string }
    | { type: 'reply_classified'; response_type: string }
  )[];
  positive: boolean;
}

const CASES: Case[] = [
  {
    name: 'a reply positive on arrival',
    events: [{ type: 'reply_received', response_type: 'positive' }],
    positive: true,
  },
  { name: 'a reply neutral until classified', events: [{ type: 'reply_received' }], positive: false },
  {
    name: 'a reply classified positive later',
    events: [{ type: 'reply_received' }, { type: 'reply_classified', response_type: 'positive' }],
    positive: true,
  },
  {
    name: 'a reply taking a positive classification that came first',
    events: [{ type: 'reply_classified', response_type: 'positive' }, { type: 'reply_received' }],
    positive: true,
  },
  {
    name: 'a positive classification pending without a reply',
    events: [{ type: 'reply_classified', response_type: 'positive' }],
    positive: false,
  },
  {
    name: 'a reply classified positive, then negative',
    events: [
      { type: 'reply_received' },
      { type: 'reply_classified', response_type: 'positive' },
      { type: 'reply_classified', response_type: 'negative' },
    ],
    positive: true,
  },
  {
    name: 'a reply positive on arrival, then a neutral one, classified negative',
    events: [
      { type: 'reply_received', response_type: 'positive' },
      { type: 'reply_received' },
      { type: 'reply_classified', response_type: 'negative' },
    ],
    positive: true,
  },
  {
    name: 'an imported received message classified positive',
    messages: [{ type: 'sent', response_type: null }, { response_type: 'positive' }],
    events: [],
    positive: true,
  },
  {
    name: 'imported received messages not positive',
    messages: [{ response_type: 'negative' }, { response_type: null }],
    events: [],
    positive: false,
  },
];

/** The document of the cases, each on an assignment of its own (501 + its index). */
function documentOf(cases: Case[]) {
  let messageId = 9000;
  return validImport({
    campaigns: [
      {
        id: 101,
        name: 'Fintech CFOs',
        created_at: '2026-04-01T09:00:00.000Z',
        sequences: [{ id: 201, provider: 'smartlead', channel: 'email', steps: [] }],
      },
    ],
    contacts: cases.map((_, index) => ({ id: 401 + index, email: `person${index}@acme.com` })),
    assignments: cases.map((_, index) => ({
      id: 501 + index,
      campaign_id: 101,
      sequence_id: 201,
      contact_id: 401 + index,
      status: 'in-progress',
      created_at: '2026-04-10T00:00:00.000Z',
    })),
    messages: cases.flatMap((each, index) =>
      (each.messages ?? []).map((message) => ({
        id: ++messageId,
        assignment_id: 501 + index,
        type: message.type ?? 'received',
        step_type: message.type === 'sent' ? 'email' : 'reply',
        response_type: message.response_type,
        body: 'Hello',
        created_at: '2026-04-20T09:00:00.000Z',
      })),
    ),
    events: cases.flatMap((each, index) =>
      each.events.map((event, order) => ({
        id: `case-${index}-${order}`,
        assignment_id: 501 + index,
        at: AT,
        ...event,
        ...(event.type === 'reply_received' ? { message: { id: ++messageId, body: 'A reply' } } : {}),
      })),
    ),
  });
}

describe('positive replies', () => {
  it('adds up the assignments with a positive reply on their campaign, all cases in one import', async () => {
    // Prepare
    const document = documentOf(CASES);

    // Act
    const { image } = await planBulkImport(ORG, document, { excludedDomains: new Set(), messageIds: [] });

    // Assess
    const flags = CASES.map((each, index) => [
      each.name,
      image.get(keys.assignment(ORG, 501 + index))?.positiveReplied === true,
    ]);
    expect(flags).toEqual(CASES.map((each) => [each.name, each.positive]));
    const campaign = image.get(keys.campaign(ORG, 101))!;
    expect(campaign.statPositiveReplied).toBe(CASES.filter((each) => each.positive).length);
  });

  it.each(CASES)('counts $name as a positive reply: $positive', async (each) => {
    // Prepare
    const document = documentOf([each]);

    // Act
    const { image } = await planBulkImport(ORG, document, { excludedDomains: new Set(), messageIds: [] });

    // Assess
    expect(image.get(keys.assignment(ORG, 501))?.positiveReplied ?? false).toBe(each.positive);
    expect(image.get(keys.campaign(ORG, 101))?.statPositiveReplied ?? 0).toBe(each.positive ? 1 : 0);
  });
});
