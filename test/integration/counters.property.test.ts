import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyImport } from '#admin/import.ts';
import { DomainError } from '#domain/errors.ts';
import { transition } from '#domain/lifecycle.ts';
import { createOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import {
  PROVIDER_EVENT_TYPES,
  type ProviderEvent,
  type ProviderEventType,
  providerEvent,
} from '#schemas/import.ts';
import { ASSIGNMENT_STATUSES, type AssignmentStatus, RESPONSE_TYPES } from '#schemas/resources.ts';
import { WRITER_SLOTS } from '#store/counter-shards.ts';
import { keys } from '#store/keys.ts';
import { importFor, validImport } from '../support/import.ts';
import {
  type CounterSnapshot,
  maintained,
  maintainedAndRecomputed,
  type RawOrganization,
  readRawOrganization,
} from '../support/recompute.ts';

/*
 * The counter invariant (docs/decisions.md, Assignments): after any sequence of provider
 * events (valid or not, replayed or not), every counter maintained at write
 * time equals its recomputation from the raw items (test/support/recompute.ts).
 *
 *   random setup ──import (bulk or transactional path)──▶ fresh organization
 *   random events ──recordProviderEvent──▶ applied | duplicate | rejected (a domain conflict)
 *                 ──model──▶ the outcome and state each event should have
 *   finally: maintained counters == recomputed from raw items, and raw items == model
 *
 * and the same with the events sent by concurrent writers, each assignment's
 * events by one writer in order, so the counter shards, the campaigns' and the
 * organization's, and the contacts several assignments share are written at
 * once (docs/scaling.md), each event with a random writer slot or none, so an
 * assignment's deltas land on different shards;
 *
 * and, for the import's bulk path: the random events the model accepts, put
 * into the document as history, imported in bulk into one organization and
 * change by change into another: the same counters, equal to their
 * recomputation and to the model.
 *
 * The fixed seed makes every run the same; fast-check prints the seed and the
 * shrunk counterexample on failure. FC_SEED overrides the seed to explore.
 */

const SEED = Number(process.env.FC_SEED ?? 20_260_501);
const NUM_RUNS = 30;
/**
 * Runs of each import path's live-event property: the two share the events' model and differ only in
 * how the starting state was written, which the history property below compares in full.
 */
const NUM_RUNS_PER_IMPORT_PATH = NUM_RUNS / 2;
/** Runs of the concurrent writers' property: up to 40 events a run, four writers at once. */
const NUM_RUNS_CONCURRENT = 20;
/** Writers sending one run's events at once. */
const WRITERS = 4;

/** Two campaigns: 1 with an email and a LinkedIn sequence, 2 with one email sequence. */
const SEQUENCES = [
  { id: 11, campaignId: 1, channel: 'email', provider: 'smartlead' },
  { id: 12, campaignId: 1, channel: 'linkedin', provider: 'heyreach' },
  { id: 21, campaignId: 2, channel: 'email', provider: 'instantly' },
] as const;
/** A message id no event ever writes. */
const MISSING_MESSAGE_ID = 888_888_888;
/** Ids events give their messages (far above the ids the service allocates in this file's table). */
const EXPLICIT_MESSAGE_IDS = 1_000_000;

const setupArbitrary = fc.record({
  /** Whether each contact has an email (the first always has). */
  contacts: fc.array(fc.record({ hasEmail: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  /** A contact the import brings in blocked already. */
  blockedContact: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(3) }),
  assignments: fc.array(
    fc.record({
      contact: fc.nat(3),
      sequence: fc.nat(SEQUENCES.length - 1),
      // Every status, the early ones more often, so that events have a lifecycle to walk through.
      status: fc.constantFrom('pending-approval', 'scheduled', 'in-progress', ...ASSIGNMENT_STATUSES),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

const stepArbitrary = fc.record({
  /** Most steps pick an event type the assignment's current status allows; the rest any type. */
  aim: fc.constantFrom('possible', 'possible', 'possible', 'any'),
  type: fc.constantFrom(...PROVIDER_EVENT_TYPES),
  target: fc.nat(),
  /** Replays an earlier event (the same id and body) instead of a new one. */
  replay: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  /** For opened/clicked: none, one of the assignment's messages, another assignment's, or a missing one. */
  messageRef: fc.constantFrom('none', 'none', 'own', 'own', 'foreign', 'missing'),
  explicitMessageId: fc.boolean(),
  openCount: fc.constantFrom(0, 0, 0, 1, 2),
  responseType: fc.constantFrom(...RESPONSE_TYPES),
  /** For reply_received: whether it carries its response type (else it takes a pending classification). */
  replyTyped: fc.boolean(),
});

type ResponseType = (typeof RESPONSE_TYPES)[number];
type Setup = typeof setupArbitrary extends fc.Arbitrary<infer T> ? T : never;
type Step = typeof stepArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** What the organization should hold, kept from first principles alongside the real writes. */
interface Model {
  assignments: Map<
    number,
    {
      contact: number;
      status: AssignmentStatus;
      sent: number;
      opens: number;
      clicks: number;
      /** The body of its latest received message (bodies are unique per step), which a classification relabels. */
      lastReply: string | null;
      /** A classification that arrived before any reply. */
      pending: ResponseType | null;
    }
  >;
  blocked: Map<number, boolean>;
  contactEmails: Map<number, string | null>;
  /** Messages with ids the events chose: owner assignment and opens. */
  messages: Map<number, { assignmentId: number; opens: number }>;
  /** Messages written, with or without a chosen id. */
  messageCount: number;
  /** The response type of each received message, by body. */
  replyTypes: Map<string, ResponseType>;
  appliedEventIds: Set<string>;
}

/** The import document of a setup, and the model of the state it creates. */
function imported(setup: Setup): { document: unknown; model: Model } {
  const contacts = setup.contacts.map((contact, index) => ({
    id: index + 1,
    email: contact.hasEmail || index === 0 ? `contact${index + 1}@example.com` : null,
    full_name: `Contact ${index + 1}`,
    blocked: setup.blockedContact !== null && setup.blockedContact % setup.contacts.length === index,
  }));
  const taken = new Set<string>();
  const assignments = setup.assignments.flatMap((assignment) => {
    const contact = contacts[assignment.contact % contacts.length]!;
    const sequence = SEQUENCES[assignment.sequence]!;
    if (taken.has(`${contact.id}/${sequence.id}`)) return [];
    taken.add(`${contact.id}/${sequence.id}`);
    return [{ contact, sequence, status: assignment.status }];
  });
  const model: Model = {
    assignments: new Map(
      assignments.map((assignment, index) => [
        index + 1,
        {
          contact: assignment.contact.id,
          status: assignment.status,
          sent: 0,
          opens: 0,
          clicks: 0,
          lastReply: null,
          pending: null,
        },
      ]),
    ),
    blocked: new Map(contacts.map((contact) => [contact.id, contact.blocked])),
    contactEmails: new Map(contacts.map((contact) => [contact.id, contact.email])),
    messages: new Map(),
    messageCount: 0,
    replyTypes: new Map(),
    appliedEventIds: new Set(),
  };
  const document = {
    campaigns: [1, 2].map((campaignId) => ({
      id: campaignId,
      name: `Campaign ${campaignId}`,
      created_at: '2026-04-01T00:00:00.000Z',
      sequences: SEQUENCES.filter((sequence) => sequence.campaignId === campaignId).map((sequence) => ({
        id: sequence.id,
        provider: sequence.provider,
        channel: sequence.channel,
        steps: [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hello' }] }],
      })),
    })),
    contacts,
    assignments: assignments.map((assignment, index) => ({
      id: index + 1,
      campaign_id: assignment.sequence.campaignId,
      sequence_id: assignment.sequence.id,
      contact_id: assignment.contact.id,
      status: assignment.status,
      created_at: '2026-04-02T00:00:00.000Z',
      completed_at: assignment.status === 'completed' ? '2026-04-20T00:00:00.000Z' : null,
    })),
  };
  return { document, model };
}

/** The event a step sends: a new one, or an earlier one replayed as it was. */
function eventOf(step: Step, index: number, model: Model, sent: ProviderEvent[]): ProviderEvent {
  if (step.replay !== null && sent.length > 0) return sent[step.replay % sent.length]!;
  const assignmentId = (step.target % model.assignments.size) + 1;
  const status = model.assignments.get(assignmentId)!.status;
  const possible = PROVIDER_EVENT_TYPES.filter((type) => transition(status, type) !== null);
  const type =
    step.aim === 'possible'
      ? possible[PROVIDER_EVENT_TYPES.indexOf(step.type) % possible.length]!
      : step.type;
  const own = [...model.messages].filter(([, message]) => message.assignmentId === assignmentId);
  const foreign = [...model.messages].filter(([, message]) => message.assignmentId !== assignmentId);
  const pick = (messages: [number, unknown][]) =>
    messages.length > 0 ? messages[step.target % messages.length]![0] : MISSING_MESSAGE_ID;
  const messageId =
    step.messageRef === 'own' && own.length > 0
      ? pick(own)
      : step.messageRef === 'foreign'
        ? pick(foreign)
        : step.messageRef === 'missing'
          ? MISSING_MESSAGE_ID
          : undefined;
  const message = {
    ...(step.explicitMessageId ? { id: EXPLICIT_MESSAGE_IDS + index } : {}),
    step_type: 'email',
    open_count: step.openCount,
    body: `Message of step ${index}`,
  };
  const base = {
    id: `event-${index}`,
    assignment_id: assignmentId,
    type,
    at: new Date(Date.UTC(2026, 4, 1, 0, index)).toISOString(),
  };
  const extra: Record<ProviderEventType, object> = {
    approved: {},
    sequenced: {},
    message_sent: { message },
    opened: messageId === undefined ? {} : { message_id: messageId },
    clicked: messageId === undefined ? {} : { message_id: messageId },
    reply_received: {
      ...(step.replyTyped && { response_type: step.responseType }),
      message: { ...message, step_type: 'reply' },
    },
    reply_classified: { response_type: step.responseType },
    forwarded: { message: { ...message, step_type: 'reply' } },
    bounced: {},
    unsubscribed: {},
    completed: {},
    contact_blocked: {},
  };
  return providerEvent.parse({ ...base, ...extra[type] });
}

type Outcome = 'applied' | 'duplicate' | 'rejected';

/** What the event should do, from the model; applies it to the model when it applies. */
function expectedOutcome(event: ProviderEvent, model: Model): Outcome {
  if (model.appliedEventIds.has(event.id)) return 'duplicate';
  const assignment = model.assignments.get(event.assignment_id)!;
  const next = transition(assignment.status, event.type);
  if (!next) return 'rejected';
  if (event.type === 'opened' && event.message_id !== undefined) {
    if (model.messages.get(event.message_id)?.assignmentId !== event.assignment_id) return 'rejected';
  }
  const message = 'message' in event ? event.message : undefined;
  if (message?.id !== undefined && model.messages.has(message.id)) return 'rejected';

  model.appliedEventIds.add(event.id);
  assignment.status = next.status;
  if (event.type === 'contact_blocked') model.blocked.set(assignment.contact, true);
  if (event.type === 'message_sent') assignment.sent += 1;
  if (event.type === 'clicked') assignment.clicks += 1;
  if (event.type === 'opened') {
    assignment.opens += 1;
    if (event.message_id !== undefined) model.messages.get(event.message_id)!.opens += 1;
  }
  if (event.type === 'reply_received') {
    model.replyTypes.set(event.message.body!, event.response_type ?? assignment.pending ?? 'neutral');
    assignment.lastReply = event.message.body!;
    assignment.pending = null;
  }
  if (event.type === 'reply_classified') {
    if (assignment.lastReply === null) assignment.pending = event.response_type;
    else model.replyTypes.set(assignment.lastReply, event.response_type);
  }
  if (message) {
    model.messageCount += 1;
    assignment.opens += message.open_count;
    if (message.id !== undefined) {
      model.messages.set(message.id, { assignmentId: event.assignment_id, opens: message.open_count });
    }
  }
  return 'applied';
}

async function record(
  orgId: number,
  event: ProviderEvent,
  writerSlot: number | null = null,
): Promise<Outcome> {
  try {
    return (await recordProviderEvent(orgId, event, { writerSlot })).outcome;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'conflict') return 'rejected';
    throw error;
  }
}

/** Which of the event ids have a marker item, i.e. were applied (one BatchGetItem; runs send ≤ 30 ids). */
async function markedEventIds(orgId: number, eventIds: string[]): Promise<string[]> {
  if (eventIds.length === 0) return [];
  const { Responses } = await dynamo.send(
    new BatchGetCommand({
      RequestItems: {
        [tableName()]: { Keys: eventIds.map((id) => keys.providerEvent(orgId, id)), ConsistentRead: true },
      },
    }),
  );
  return eventIds
    .filter((id) =>
      (Responses?.[tableName()] ?? []).some((item) => item.pk === keys.providerEvent(orgId, id).pk),
    )
    .sort();
}

/**
 * Every maintained counter equals its recomputation, and the raw items are
 * what the model says the events made of them.
 */
async function assessAgainstModel(
  orgId: number,
  model: Model,
  events: ProviderEvent[],
): Promise<RawOrganization> {
  const { stored, recomputed, raw } = await maintainedAndRecomputed(orgId);
  expect(stored).toEqual(recomputed);

  const assignments = [...raw.assignments.values()].flat();
  expect(assignments).toHaveLength(model.assignments.size);
  for (const item of assignments) {
    const expected = model.assignments.get(item.assignmentId as number)!;
    expect(item).toMatchObject({
      status: expected.status,
      sentCount: expected.sent,
      openCount: expected.opens,
      clickCount: expected.clicks,
      contactBlocked: model.blocked.get(expected.contact),
    });
    expect(item.pendingResponseType ?? null, `pending of ${item.assignmentId}`).toBe(expected.pending);
  }
  const messages = [...raw.messages.values()].flat();
  expect(messages).toHaveLength(model.messageCount);
  for (const [messageId, expected] of model.messages) {
    expect(messages.find((message) => message.messageId === messageId)).toMatchObject({
      assignmentId: expected.assignmentId,
      openCount: expected.opens,
    });
  }
  for (const message of messages.filter((each) => each.messageType === 'received')) {
    expect(message.responseType, `response type of ${message.body}`).toBe(
      model.replyTypes.get(message.body as string),
    );
  }
  for (const [contactId, email] of model.contactEmails) {
    const contact = raw.contacts.get(keys.contact(orgId, { id: contactId, email }).pk);
    if (contact) expect(contact.blocked, `contact ${contactId}`).toBe(model.blocked.get(contactId));
  }
  const eventIds = [...new Set(events.map((event) => event.id))];
  expect(await markedEventIds(orgId, eventIds)).toEqual(
    eventIds.filter((id) => model.appliedEventIds.has(id)).sort(),
  );
  return raw;
}

/** A counter snapshot with the organization's id taken out of its keys, to compare two organizations. */
const withoutOrganization = (orgId: number, snapshot: CounterSnapshot): unknown =>
  JSON.parse(JSON.stringify(snapshot).replaceAll(`ORG#${orgId}#`, 'ORG#*#'));

describe('maintained counters', () => {
  it.each(['bulk', 'transactional'] as const)(
    'equal a recomputation from the raw items after random provider event sequences, on a %s import',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(
          setupArbitrary,
          fc.array(stepArbitrary, { minLength: 5, maxLength: 30, size: 'max' }),
          async (setup, steps) => {
            // Prepare
            const { orgId } = await createOrganization('Property Inc');
            const { document, model } = imported(setup);
            expect((await importFor(orgId, document, { path })).path).toBe(path);

            // Act
            const sent: ProviderEvent[] = [];
            for (const [index, step] of steps.entries()) {
              const event = eventOf(step, index, model, sent);
              const expected = expectedOutcome(event, model);
              const actual = await record(orgId, event);
              expect(actual, `${event.type} ${event.id} on assignment ${event.assignment_id}`).toBe(expected);
              sent.push(event);
            }

            // Assess
            await assessAgainstModel(orgId, model, sent);
          },
        ),
        { seed: SEED, numRuns: NUM_RUNS_PER_IMPORT_PATH },
      );
    },
    120_000,
  );

  it('equal a recomputation after random provider events sent by concurrent writers, whatever shards they write', async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArbitrary,
        fc.array(stepArbitrary, { minLength: 10, maxLength: 40, size: 'max' }),
        // Per event, the writer slot it is recorded with (none: hashed shards), as when a consumer claims,
        // loses and claims another slot between an assignment's events.
        fc.array(fc.option(fc.nat({ max: WRITER_SLOTS - 1 }), { nil: null }), {
          minLength: 40,
          maxLength: 40,
        }),
        async (setup, steps, writerSlots) => {
          // Prepare: the events and their outcomes, planned in order; each assignment's go to one writer
          const { orgId } = await createOrganization('Concurrent Property Inc');
          const { document, model } = imported(setup);
          await importFor(orgId, document);
          const sent: ProviderEvent[] = [];
          const queues: { event: ProviderEvent; expected: Outcome; writerSlot: number | null }[][] =
            Array.from({ length: WRITERS }, () => []);
          for (const [index, step] of steps.entries()) {
            const event = eventOf(step, index, model, sent);
            // An event's outcome depends only on its own assignment's earlier events (an open of another
            // assignment's message is refused whether that message exists yet or not), so it holds in any interleaving.
            queues[event.assignment_id % WRITERS]!.push({
              event,
              expected: expectedOutcome(event, model),
              writerSlot: writerSlots[index] ?? null,
            });
            sent.push(event);
          }

          // Act
          const outcomes = await Promise.all(
            queues.map(async (queue) => {
              const actual: Outcome[] = [];
              for (const { event, writerSlot } of queue) actual.push(await record(orgId, event, writerSlot));
              return actual;
            }),
          );

          // Assess
          expect(outcomes).toEqual(queues.map((queue) => queue.map(({ expected }) => expected)));
          await assessAgainstModel(orgId, model, sent);
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS_CONCURRENT },
    );
  }, 180_000);

  // Last: its imports raise the message id counter past EXPLICIT_MESSAGE_IDS, which the live events above must not meet.
  it('equal a recomputation after random event histories imported through the bulk path, as through the transactional one', async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArbitrary,
        fc.array(stepArbitrary, { minLength: 5, maxLength: 30, size: 'max' }),
        async (setup, steps) => {
          // Prepare: the events the model accepts (applied or replayed) become the document's history
          const { document, model } = imported(setup);
          const history: ProviderEvent[] = [];
          for (const [index, step] of steps.entries()) {
            const event = eventOf(step, index, model, history);
            if (expectedOutcome(event, model) !== 'rejected') history.push(event);
          }
          const withHistory = validImport({ ...(document as object), events: history });
          const bulk = await createOrganization('Bulk Property Inc');
          const transactional = await createOrganization('Transactional Property Inc');

          // Act
          const bulkReport = await applyImport(bulk.orgId, withHistory);
          const transactionalReport = await applyImport(transactional.orgId, withHistory, undefined, {
            path: 'transactional',
          });

          // Assess: the bulk path's counters equal their recomputation and the model, and the transactional path's
          expect(bulkReport.path).toBe('bulk');
          expect({ ...bulkReport, path: 'transactional' }).toEqual(transactionalReport);
          const raw = await assessAgainstModel(bulk.orgId, model, history);
          expect(withoutOrganization(bulk.orgId, maintained(raw))).toEqual(
            withoutOrganization(
              transactional.orgId,
              maintained(await readRawOrganization(transactional.orgId)),
            ),
          );
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  }, 120_000);
});
