import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoDocument } from '#admin/demo.ts';
import { validateImport } from '#admin/import.ts';
import { type DemoSeed, demoOrganizationId, seedDemo } from '#admin/seed.ts';
import { accountIdByDomain, getAccountWithQualifications } from '#domain/accounts.ts';
import { statusCounter } from '#domain/aggregates.ts';
import { type CampaignRecord, listCampaigns, toCampaignSummary } from '#domain/campaigns.ts';
import { getContactsByEmail } from '#domain/contacts.ts';
import { listCampaignMessages } from '#domain/messages.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { ASSIGNMENT_STATUSES, type CampaignMessage } from '#schemas/resources.ts';
import { keys } from '#store/keys.ts';
import { validImport } from '../support/import.ts';

/**
 * The demo organization that `outreach-admin seed demo` and `npm start` build:
 * the generator's document is valid and reproducible, and once imported the
 * organization has what the issue promises, read back through the domain's
 * read functions and Queries (never a Scan).
 */

const NOW = new Date('2026-04-15T12:00:00.000Z');

async function queryAll(index: 'gsi1' | 'gsi2', partition: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

describe('demo document', () => {
  it('passes the import validation', () => {
    const result = validateImport(demoDocument({ now: NOW }));
    expect(result.ok ? [] : result.errors.slice(0, 5)).toEqual([]);
  });

  it('is the same for the same seed and moment, and differs for another seed', () => {
    const first = JSON.stringify(demoDocument({ now: NOW }));
    expect(JSON.stringify(demoDocument({ now: NOW }))).toBe(first);
    expect(JSON.stringify(demoDocument({ now: NOW, seed: 7 }))).not.toBe(first);
  });

  it('starts its ids where it is told, so two demo organizations never share ids', () => {
    const document = demoDocument({ now: NOW, firstIds: { campaign: 50, contact: 1000, message: 9000 } });
    expect(document.campaigns?.map((campaign) => campaign.id)).toEqual([50, 51, 52, 53]);
    expect(Math.min(...(document.contacts ?? []).map((contact) => contact.id))).toBe(1000);
    expect(Math.min(...(document.messages ?? []).map((message) => message.id))).toBeGreaterThanOrEqual(9000);
  });

  it('puts nothing after the moment it leads up to', () => {
    const document = validImport(demoDocument({ now: NOW }));
    const times = [
      ...document.assignments.flatMap((assignment) => [
        assignment.created_at,
        assignment.approved_at,
        assignment.completed_at,
        assignment.bounced_at,
      ]),
      ...document.messages.map((message) => message.created_at),
      ...document.events.map((event) => event.at),
      ...document.jobs.flatMap((job) => [job.first_seen_at, job.last_seen_at]),
    ].filter((time): time is string => typeof time === 'string');
    expect(times.length).toBeGreaterThan(5000);
    expect(times.filter((time) => time > NOW.toISOString())).toEqual([]);
  });
});

describe('seedDemo', () => {
  let seed: DemoSeed;
  let campaigns: CampaignRecord[];
  const document = demoDocument({ now: NOW });

  /** The import's phases, in the order their progress came. */
  const phases: string[] = [];
  /** The phases seen by each call of `onWriting`. */
  const writingCalls: string[][] = [];

  // The seed takes seconds (the import's bulk path); the margin is for a loaded machine.
  beforeAll(async () => {
    seed = await seedDemo({
      now: NOW,
      onProgress: (phase) => {
        if (phases.at(-1) !== phase) phases.push(phase);
      },
      onWriting: () => writingCalls.push([...phases]),
    });
    campaigns = await listCampaigns(seed.orgId);
  }, 60_000);

  it('says once when it has computed its items and begins writing them (npm start loads its stack then)', () => {
    expect(writingCalls).toHaveLength(1);
    expect(writingCalls[0]).toContain('preparing items');
    expect(writingCalls[0]).not.toContain('writing items');
    expect(phases).toContain('writing items');
  });

  it('records the seeded organization as the demo and reports what it imported', async () => {
    expect(await demoOrganizationId()).toBe(seed.orgId);
    expect(seed.apiKey.startsWith(`${seed.orgId}.`)).toBe(true);
    expect(seed.report).toMatchObject({
      campaigns: document.campaigns?.length,
      contacts: document.contacts?.length,
      assignmentsCreated: document.assignments?.length,
      eventsApplied: document.events?.length,
      path: 'bulk',
    });
  });

  it('queues no work, so that the local stack can seed a new table before its stream is on', async () => {
    // Whether an item exists anywhere is a question only a Scan answers; this table is the test's own.
    const outbox: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo.send(
        new ScanCommand({
          TableName: tableName(),
          FilterExpression: '#type = :outbox AND orgId = :orgId',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':outbox': 'outbox', ':orgId': seed.orgId },
          ExclusiveStartKey: startKey,
        }),
      );
      outbox.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    expect(document.exclusions?.length).toBeGreaterThan(0);
    expect(outbox).toEqual([]);
  });

  it('has at least 3 campaigns over at least 2 providers, with a LinkedIn sequence', () => {
    expect(campaigns.length).toBeGreaterThanOrEqual(3);
    const providers = new Set(campaigns.flatMap((campaign) => toCampaignSummary(campaign).providers));
    expect(providers.size).toBeGreaterThanOrEqual(2);
    const channels = campaigns.flatMap((campaign) => campaign.sequences.map((sequence) => sequence.channel));
    expect(channels).toContain('linkedin');
  });

  it('has at least 200 accounts, each with scored signals', async () => {
    const domains = (document.accounts ?? []).map((account) => account.domain);
    const ids = await Promise.all(domains.map((domain) => accountIdByDomain(seed.orgId, domain)));
    const found = ids.filter((id): id is number => id !== null);
    expect(found.length).toBeGreaterThanOrEqual(200);
    const sample = await Promise.all(
      found.slice(0, 20).map((id) => getAccountWithQualifications(seed.orgId, id)),
    );
    for (const state of sample) {
      expect(state?.account.score).toBeGreaterThan(0);
      expect(state?.account.signals.length).toBeGreaterThan(0);
      expect(state?.qualifications.length).toBeGreaterThan(0);
    }
    const listed = await Promise.all(
      campaigns.map((campaign) =>
        queryAll('gsi1', keys.campaignAccountsIndex(seed.orgId, campaign.campaignId).gsi1pk),
      ),
    );
    expect(listed.every((accounts) => accounts.length > 0)).toBe(true);
  });

  it('has at least 1,000 contacts', async () => {
    const emails = (document.contacts ?? []).flatMap((contact) => (contact.email ? [contact.email] : []));
    const contacts = await getContactsByEmail(seed.orgId, emails);
    expect(contacts.size).toBeGreaterThanOrEqual(1000);
  });

  it('has assignments in every status, as many as the campaign counters say', async () => {
    const listed = await Promise.all(
      ASSIGNMENT_STATUSES.map(async (status) => {
        const perCampaign = await Promise.all(
          campaigns.map((campaign) =>
            queryAll('gsi2', keys.campaignStatusIndex(seed.orgId, campaign.campaignId, status).gsi2pk),
          ),
        );
        return [status, perCampaign.flat().length] as const;
      }),
    );
    const counted = ASSIGNMENT_STATUSES.map(
      (status) =>
        [status, campaigns.reduce((total, campaign) => total + campaign[statusCounter(status)], 0)] as const,
    );
    expect(listed).toEqual(counted);
    for (const [status, count] of listed) expect(count, status).toBeGreaterThan(0);
  });

  it('has a message history with opens, clicks and replies of at least 3 response types', async () => {
    const messages: CampaignMessage[] = (
      await Promise.all(
        campaigns.map((campaign) =>
          listCampaignMessages(seed.orgId, campaign.campaignId, 0, Math.max(1, campaign.messagesCount)),
        ),
      )
    ).flat();
    expect(messages.length).toBe(campaigns.reduce((total, campaign) => total + campaign.messagesCount, 0));
    expect(messages.some((message) => message.type === 'sent' && message.open_count > 0)).toBe(true);
    const responseTypes = new Set(
      messages.filter((message) => message.type === 'received').map((message) => message.response_type),
    );
    expect(responseTypes.size).toBeGreaterThanOrEqual(3);
    const stats = campaigns.map((campaign) => toCampaignSummary(campaign).stats);
    expect(stats.reduce((total, stat) => total + stat.opened, 0)).toBeGreaterThan(0);
    expect(stats.reduce((total, stat) => total + stat.clicked, 0)).toBeGreaterThan(0);
    expect(stats.reduce((total, stat) => total + stat.blocked, 0)).toBeGreaterThan(0);
  });

  it('has job openings for at least 12 domains', async () => {
    const domains = [...new Set((document.jobs ?? []).map((job) => job.domain))];
    const jobs = await Promise.all(
      domains.map((domain) => queryAll('gsi1', keys.jobsOfDomainIndex(seed.orgId, domain).gsi1pk)),
    );
    expect(jobs.filter((list) => list.length > 0).length).toBeGreaterThanOrEqual(12);
  });
});
