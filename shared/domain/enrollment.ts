import { type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { logger } from '#platform/logger.ts';
import { count } from '#platform/observability.ts';
import { loadProviderClient } from '#providers/clients.ts';
import {
  type LeadOutcome,
  type LeadToEnroll,
  ProviderApiError,
  type ProviderClient,
  type ProviderHttp,
} from '#providers/contract.ts';
import type { Provider } from '#schemas/import.ts';
import type { ProviderWorkMessage } from '#schemas/provider-work-message.ts';
import {
  type AssignmentRecord,
  type EnrollTarget,
  enrollAttemptWrite,
  enrollmentOutcomeWrite,
  getAssignments,
} from '#store/assignments.ts';
import { enrollments, type PacingBudget } from '#store/enrollments.ts';
import { outboxWrite } from '#store/outbox.ts';
import { getProviderConnection, type ProviderConnectionRecord } from '#store/provider-connections.ts';
import { MAX_TRANSACTION_ITEMS, type TransactItem, transact } from '#store/transactions.ts';
import { providerApiKeyOf } from './provider-connections.ts';

/**
 * Enrollment at the providers (docs/providers.md#enrollment). An assignment
 * that becomes `scheduled` on a sequence linked to a connected provider
 * campaign gets `enrollment: pending` and, in the same transaction, an outbox
 * message for the enrollment queue. Its consumer groups the assignments per
 * connection and provider campaign, adds them in the provider's batch size at
 * the pace the connection allows, and records each outcome: enrolled with the
 * provider's lead id (and `sequencedAt`), or failed with the provider's
 * reason. Stopping (an excluded domain, a blocked or unsubscribed contact)
 * goes through the same queue and pauses or removes the lead.
 *
 * Never twice: an assignment is marked before its add request is sent, and a
 * marked one is looked up at the provider before it is added again (a crash
 * after the provider accepted the batch leaves the mark, not the lead id);
 * an assignment with a lead id is never sent again. Never silently lost: a
 * refusal is recorded and listed, a 429 puts the work back after Retry-After,
 * a provider that keeps failing ends as a recorded failure on the last
 * receive.
 */

/** The enrollment queue, whose messages #schemas/provider-work-message.ts describes: what schedules or stops assignments queues work on it in its own transactions. */
const QUEUE: QueueName = 'enrollment';

/** The outbox write that enrolls these (newly scheduled) assignments. */
export const enrollmentOutboxWrite = (orgId: number, assignmentIds: readonly number[]): TransactItem =>
  outboxWrite(orgId, QUEUE, {
    kind: 'enroll',
    orgId,
    assignmentIds: [...assignmentIds],
  } satisfies ProviderWorkMessage);

/** The outbox write that stops these assignments' leads at their providers (those enrolled). */
export const stopOutboxWrite = (
  orgId: number,
  assignmentIds: readonly number[],
  reason: string,
): TransactItem =>
  outboxWrite(orgId, QUEUE, {
    kind: 'stop',
    orgId,
    assignmentIds: [...assignmentIds],
    reason,
  } satisfies ProviderWorkMessage);

/** The outbox write that stops every lead enrolled under an excluded domain. */
export const stopDomainOutboxWrite = (orgId: number, domain: string): TransactItem =>
  outboxWrite(orgId, QUEUE, { kind: 'stop-domain', orgId, domain } satisfies ProviderWorkMessage);

/** Where a sequence's assignments are enrolled: its provider campaign on its connection, when it has both. */
export function enrollTargetOf(sequence: {
  external_id?: string | null;
  connection_id?: number | null;
}): EnrollTarget | null {
  return sequence.external_id && sequence.connection_id
    ? { connectionId: sequence.connection_id, externalId: sequence.external_id }
    : null;
}

/** One unit of queued work and what became of it. */
export interface WorkItem {
  message: ProviderWorkMessage;
  /** How many times the queue handed it out (the last receive records failures instead of retrying). */
  receiveCount: number;
}

export type WorkOutcome =
  | { kind: 'done' }
  /** Put back on the queue after `delaySeconds` without counting a receive (a 429, the time budget). */
  | { kind: 'defer'; message: ProviderWorkMessage; delaySeconds: number }
  /** Hand it out again after the queue's backoff (the provider is unavailable). */
  | { kind: 'retry' };

export interface WorkContext {
  /** The time after which no new provider request starts (ms since the epoch). */
  deadline: number;
  /** The transport for a connection (tests and the bench count requests). */
  httpFor?: (connection: ProviderConnectionRecord, pace: () => Promise<void>) => ProviderHttp;
  /** How to wait (the tests' fake clocks replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** How leads wait for a provider campaign that takes none yet (the tests' are short). */
  campaignWait?: CampaignWait;
}

/** A provider campaign that takes no leads (paused, no sender): its leads are tried again every `retrySeconds` for `maxWaitSeconds`. */
export interface CampaignWait {
  retrySeconds: number;
  maxWaitSeconds: number;
}

/** Every 15 minutes (SQS's longest delay) for a day: a campaign paused for a day is not coming back soon. */
export const DEFAULT_CAMPAIGN_WAIT: CampaignWait = { retrySeconds: 900, maxWaitSeconds: 86_400 };

/** A 429 asking for a wait up to this long is waited out in place; a longer one defers the work. */
const MAX_WAIT_IN_PLACE_MS = 10_000;
/** Leads recorded per transaction (an update, a failure entry or two domain entries each). */
const RECORDS_PER_TRANSACTION = Math.floor(MAX_TRANSACTION_ITEMS / 3);
/** Assignments of a domain stopped per page. */
const DOMAIN_PAGE = 100;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Carries out one queued unit of work. */
export async function processProviderWork(item: WorkItem, context: WorkContext): Promise<WorkOutcome> {
  const { message } = item;
  if (message.kind === 'stop-domain') {
    await stopDomain(message.orgId, message.domain, context);
    return { kind: 'done' };
  }
  const records = await getAssignments(message.orgId, message.assignmentIds);
  if (message.kind === 'stop') {
    await stopLeads(message.orgId, records, context);
    return { kind: 'done' };
  }
  const due = records.filter(
    (record) =>
      record.enrollTarget !== null &&
      record.providerLeadId === null &&
      record.status === 'scheduled' &&
      record.enrollment?.status !== 'failed',
  );
  const lastReceive = item.receiveCount >= queueDefinitions.enrollment.maxReceiveCount;
  const groups = groupByTarget(due);
  for (const [index, group] of groups.entries()) {
    const outcome = await enrollGroup(
      message.orgId,
      group.target,
      group.records,
      context,
      lastReceive,
      message.waitingSince,
    );
    if (outcome.kind === 'done') continue;
    // Those already enrolled are skipped when the message comes back (they have a lead id).
    if (outcome.kind === 'retry') return { kind: 'retry' };
    const later = groups
      .slice(index + 1)
      .flatMap((each) => each.records.map((record) => record.assignmentId));
    return {
      kind: 'defer',
      message: {
        ...message,
        assignmentIds: [...outcome.remaining, ...later],
        ...(outcome.waitingSince ? { waitingSince: outcome.waitingSince } : {}),
      },
      delaySeconds: outcome.delaySeconds,
    };
  }
  return { kind: 'done' };
}

function groupByTarget(records: AssignmentRecord[]): { target: EnrollTarget; records: AssignmentRecord[] }[] {
  const groups = new Map<string, { target: EnrollTarget; records: AssignmentRecord[] }>();
  for (const record of records) {
    const target = record.enrollTarget!;
    const key = `${target.connectionId}\n${target.externalId}`;
    const group = groups.get(key) ?? { target, records: [] };
    group.records.push(record);
    groups.set(key, group);
  }
  return [...groups.values()];
}

type GroupOutcome =
  | { kind: 'done'; remaining: number[] }
  /** `waitingSince`: the leads wait for their provider campaign to take leads (since then). */
  | { kind: 'defer'; delaySeconds: number; remaining: number[]; waitingSince?: string }
  | { kind: 'retry'; remaining: number[] };

export interface Session {
  connection: ProviderConnectionRecord;
  client: ProviderClient;
  /** Whose request budget the session's calls take their slots from (provider-pacing.ts). */
  budget: PacingBudget;
  http: ProviderHttp;
  credentials: { apiKey: string };
}

/** The connection's client and transport, or null when the connection is gone. */
export async function openSession(
  orgId: number,
  connectionId: number,
  context: Pick<WorkContext, 'httpFor' | 'sleep'>,
): Promise<Session | null> {
  const connection = await getProviderConnection(orgId, connectionId);
  if (!connection) return null;
  const client = await loadProviderClient(connection.provider);
  // The transport, its SSRF rules, the pacing and the health tracking load with the client: only a
  // session calls a provider, so a consumer's start need not read them (docs/architecture.md, Bundles).
  const [{ pacer, pacingBudgetOf }, { healthTrackedHttp }, { providerHttp }, { configuredUrlPolicy }] =
    await Promise.all([
      import('./provider-pacing.ts'),
      import('./connection-health.ts'),
      import('#providers/transport.ts'),
      import('#platform/ssrf.ts'),
    ]);
  const budget = pacingBudgetOf(connection);
  const pace = pacer(budget, connection.provider, client.facts, context.sleep ?? defaultSleep);
  const http =
    context.httpFor?.(connection, pace) ??
    providerHttp(connection.baseUrl ?? client.facts.defaultBaseUrl, {
      policy: configuredUrlPolicy(),
      beforeRequest: pace,
    });
  return {
    connection,
    client,
    budget,
    // Every call of the session (an enrollment, a stop, a reply) keeps the connection's health.
    http: healthTrackedHttp(http, connection, client.facts.displayName),
    credentials: { apiKey: await providerApiKeyOf(connection) },
  };
}

const leadOf = (record: AssignmentRecord): LeadToEnroll => ({
  ref: String(record.assignmentId),
  email: record.contact.email ?? null,
  firstName: record.contact.first_name ?? null,
  lastName: record.contact.last_name ?? null,
  companyName: record.contact.company_name ?? null,
  companyDomain: record.contact.company_domain ?? null,
  title: record.contact.title ?? null,
  linkedinUrl: record.contact.linkedin_url ?? null,
  variables: Object.fromEntries(record.variables),
});

async function enrollGroup(
  orgId: number,
  target: EnrollTarget,
  records: AssignmentRecord[],
  context: WorkContext,
  lastReceive: boolean,
  waitingSince: string | undefined,
): Promise<GroupOutcome> {
  const session = await openSession(orgId, target.connectionId, context);
  if (!session) {
    await recordOutcomes(
      orgId,
      target,
      null,
      records.map((record) => ({ record, outcome: refused(record, 'the provider connection was removed') })),
    );
    return { kind: 'done', remaining: [] };
  }
  const batchSize = session.client.facts.maxLeadsPerRequest;
  const provider = session.connection.provider;
  // Assignments whose outcome is recorded: a retry, a refusal or a deferral of the rest leaves them be.
  const recorded = new Set<number>();
  // Assignments marked during this invocation: tried again after a 429, they are looked up first.
  const attempted = new Set<number>();
  const record = async (results: RecordedOutcome[]) => {
    await recordOutcomes(orgId, target, provider, results);
    for (const { record } of results) recorded.add(record.assignmentId);
  };
  const unrecorded = () => records.filter((each) => !recorded.has(each.assignmentId));
  for (let pending = unrecorded(); pending.length > 0; pending = unrecorded()) {
    if (Date.now() > context.deadline) {
      count('EnrollmentDeferred', pending.length);
      return { kind: 'defer', delaySeconds: 0, remaining: pending.map((record) => record.assignmentId) };
    }
    try {
      await enrollChunk(orgId, target, session, pending.slice(0, batchSize), attempted, record);
    } catch (error) {
      if (!(error instanceof ProviderApiError)) throw error;
      // The leads of the chunk recorded before the error stay recorded; the rest go on below.
      pending = unrecorded();
      const remaining = pending.map((record) => record.assignmentId);
      if (error.kind === 'refused') {
        await record(pending.map((record) => ({ record, outcome: refused(record, error.message) })));
        return { kind: 'done', remaining: [] };
      }
      if (error.kind === 'campaign-not-ready') {
        const wait = context.campaignWait ?? DEFAULT_CAMPAIGN_WAIT;
        const since = waitingSince ?? new Date().toISOString();
        if (Date.now() - Date.parse(since) < wait.maxWaitSeconds * 1000) {
          await recordWaiting(orgId, pending, error.message);
          return { kind: 'defer', delaySeconds: wait.retrySeconds, remaining, waitingSince: since };
        }
        const waited = `the provider campaign took no leads for ${duration(wait.maxWaitSeconds)}`;
        await record(
          pending.map((record) => ({ record, outcome: refused(record, `${waited}: ${error.message}`) })),
        );
        return { kind: 'done', remaining: [] };
      }
      if (error.kind === 'rate-limited') {
        count('ProviderRateLimited');
        const delaySeconds = Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1));
        await enrollments.holdRequestsUntil(session.budget, Date.now() + delaySeconds * 1000);
        if (
          delaySeconds * 1000 <= MAX_WAIT_IN_PLACE_MS &&
          Date.now() + delaySeconds * 1000 < context.deadline
        )
          continue;
        count('EnrollmentDeferred', pending.length);
        return { kind: 'defer', delaySeconds, remaining };
      }
      // Unavailable: the queue hands it out again with backoff; the last time, it is recorded as failed.
      if (!lastReceive) return { kind: 'retry', remaining };
      await record(
        pending.map((record) => ({
          record,
          outcome: refused(
            record,
            `the provider did not answer after ${queueDefinitions.enrollment.maxReceiveCount} attempts: ${error.message}`,
          ),
        })),
      );
      return { kind: 'done', remaining: [] };
    }
  }
  return { kind: 'done', remaining: [] };
}

/**
 * Leads whose campaign takes none now stay `pending`, with the reason on their enrollment
 * (the campaign's contacts show it) until they are enrolled or the wait ends.
 */
async function recordWaiting(orgId: number, records: AssignmentRecord[], reason: string): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < records.length; start += MAX_TRANSACTION_ITEMS) {
    await transact(
      records
        .slice(start, start + MAX_TRANSACTION_ITEMS)
        .map((each) =>
          enrollmentOutcomeWrite(orgId, each.assignmentId, { status: 'pending', error: reason }, at),
        ),
    );
  }
  count('EnrollmentWaiting', records.length);
  logger.info('Leads wait for their provider campaign', { orgId, waiting: records.length, reason });
}

const duration = (seconds: number): string =>
  seconds >= 3600 && seconds % 3600 === 0 ? `${seconds / 3600} hours` : `${seconds} seconds`;

const refused = (record: AssignmentRecord, reason: string): LeadOutcome => ({
  ref: String(record.assignmentId),
  status: 'refused',
  reason,
});

interface RecordedOutcome {
  record: AssignmentRecord;
  outcome: LeadOutcome;
}

/**
 * One add request's worth: leads tried before are looked up first (a crash may
 * have followed the provider's acceptance), the rest are marked and added.
 * Each outcome is recorded as soon as it is known (docs/providers.md#enrollment):
 * a lookup's at once, an added lead's when the client tells it (Smartlead reads
 * each lead back, a second apart), the others' when the add returns. So a crash
 * mid-batch keeps what was recorded; the rest are marked and found on the retry.
 */
async function enrollChunk(
  orgId: number,
  target: EnrollTarget,
  session: Session,
  chunk: AssignmentRecord[],
  attempted: Set<number>,
  record: (results: RecordedOutcome[]) => Promise<void>,
): Promise<void> {
  const toAdd: AssignmentRecord[] = [];
  for (const each of chunk) {
    if (each.enrollAttemptedAt === null && !attempted.has(each.assignmentId)) {
      toAdd.push(each);
      continue;
    }
    const leadId = await session.client.findEnrolled(
      session.http,
      session.credentials,
      target.externalId,
      leadOf(each),
    );
    if (leadId)
      await record([
        { record: each, outcome: { ref: String(each.assignmentId), status: 'enrolled', leadId } },
      ]);
    else toAdd.push(each);
  }
  if (toAdd.length === 0) return;
  const at = new Date().toISOString();
  for (let start = 0; start < toAdd.length; start += MAX_TRANSACTION_ITEMS) {
    await transact(
      toAdd
        .slice(start, start + MAX_TRANSACTION_ITEMS)
        .map((each) => enrollAttemptWrite(orgId, each.assignmentId, at)),
    );
  }
  for (const each of toAdd) attempted.add(each.assignmentId);
  // Each lead's outcome once: the first the client tells, by its `ref`.
  const unheard = new Map(toAdd.map((each) => [String(each.assignmentId), each]));
  const heard = (outcome: LeadOutcome): RecordedOutcome | null => {
    const each = unheard.get(outcome.ref);
    if (!each) return null;
    unheard.delete(outcome.ref);
    return { record: each, outcome };
  };
  const outcomes = await session.client.enroll(
    session.http,
    session.credentials,
    target.externalId,
    toAdd.map(leadOf),
    async (outcome) => {
      const result = heard(outcome);
      if (result) await record([result]);
    },
  );
  const rest = outcomes.map(heard).filter((result) => result !== null);
  for (const each of unheard.values()) {
    rest.push({ record: each, outcome: refused(each, 'the provider did not report this lead') });
  }
  if (rest.length > 0) await record(rest);
}

/** The domains a lead is found under when a domain is excluded: its email's and its company's. */
function domainsOf(record: AssignmentRecord): string[] {
  const domains = new Set<string>();
  const emailDomain = record.contact.email?.split('@')[1]?.toLowerCase();
  if (emailDomain) domains.add(emailDomain);
  if (record.contact.company_domain) domains.add(record.contact.company_domain.toLowerCase());
  return [...domains];
}

async function recordOutcomes(
  orgId: number,
  target: EnrollTarget,
  provider: Provider | null,
  results: RecordedOutcome[],
): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < results.length; start += RECORDS_PER_TRANSACTION) {
    const writes: TransactItem[] = [];
    for (const { record, outcome } of results.slice(start, start + RECORDS_PER_TRANSACTION)) {
      if (outcome.status === 'enrolled') {
        writes.push(
          enrollmentOutcomeWrite(
            orgId,
            record.assignmentId,
            { status: 'enrolled', leadId: outcome.leadId, sequencedAt: record.sequencedAt ?? at },
            at,
          ),
          ...domainsOf(record)
            .slice(0, 2)
            .map((domain) => enrollments.putEnrolledUnderDomain(orgId, domain, record.assignmentId)),
        );
      } else {
        writes.push(
          enrollmentOutcomeWrite(orgId, record.assignmentId, { status: 'failed', error: outcome.reason }, at),
          enrollments.putFailure(orgId, {
            assignmentId: record.assignmentId,
            campaignId: record.campaignId,
            connectionId: target.connectionId,
            provider: provider ?? record.provider,
            externalId: target.externalId,
            error: outcome.reason,
            failedAt: at,
          }),
        );
      }
    }
    await transact(writes);
  }
  const enrolled = results.filter(({ outcome }) => outcome.status === 'enrolled').length;
  count('EnrollmentSucceeded', enrolled);
  count('EnrollmentFailed', results.length - enrolled);
  if (results.length > enrolled) {
    logger.warn('Provider refused enrollments', {
      orgId,
      connectionId: target.connectionId,
      refused: results.length - enrolled,
    });
  }
}

/** Assignments whose lead is still running at the provider (a finished or replied one needs no stop). */
const ACTIVE_AT_PROVIDER = new Set(['scheduled', 'in-progress']);

async function stopLeads(orgId: number, records: AssignmentRecord[], context: WorkContext): Promise<void> {
  const enrolled = records.filter(
    (record) =>
      record.providerLeadId !== null && record.enrollTarget !== null && ACTIVE_AT_PROVIDER.has(record.status),
  );
  const byConnection = new Map<number, AssignmentRecord[]>();
  for (const record of enrolled) {
    const list = byConnection.get(record.enrollTarget!.connectionId) ?? [];
    list.push(record);
    byConnection.set(record.enrollTarget!.connectionId, list);
  }
  for (const [connectionId, list] of byConnection) {
    const session = await openSession(orgId, connectionId, context);
    if (!session) continue;
    for (const record of list) {
      try {
        await session.client.stop(session.http, session.credentials, record.enrollTarget!.externalId, {
          leadId: record.providerLeadId!,
          email: record.contact.email ?? null,
          linkedinUrl: record.contact.linkedin_url ?? null,
        });
        count('ProviderLeadStopped');
      } catch (error) {
        // A refusal will not change on a retry (the campaign or key is gone); anything else is retried.
        if (!(error instanceof ProviderApiError) || error.kind !== 'refused') throw error;
        logger.warn('The provider refused to stop a lead', {
          orgId,
          connectionId,
          assignmentId: record.assignmentId,
          reason: error.message,
        });
      }
    }
  }
}

async function stopDomain(orgId: number, domain: string, context: WorkContext): Promise<void> {
  let after: string | undefined;
  do {
    const page = await enrollments.enrolledUnderDomain(orgId, domain, { take: DOMAIN_PAGE, after });
    if (page.assignmentIds.length > 0)
      await stopLeads(orgId, await getAssignments(orgId, page.assignmentIds), context);
    after = page.next ?? undefined;
  } while (after);
}
