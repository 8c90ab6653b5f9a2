import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { commands } from '#admin/commands.ts';
import { applyImport, validateImport } from '#admin/import.ts';
import { getCampaign, listCampaigns, toCampaignDetail } from '#domain/campaigns.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { ImportDocument } from '#schemas/import.ts';
import { keys } from '#store/keys.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor, validImport } from '../support/import.ts';
import { maintainedAndRecomputed, readRawOrganization } from '../support/recompute.ts';
import { countRequests } from '../support/request-counter.ts';

type Item = Record<string, unknown>;
/** The fixture as plain JSON, so tests can break it in any way a file could be broken. */
type RawDocument = Record<string, Item[]>;

const rawDocument = (): RawDocument => structuredClone(smallDocument()) as RawDocument;

/** A document with shape errors in five sections: zod reports every one. */
function badlyShapedDocument(): RawDocument {
  const document = rawDocument();
  (document.campaigns![0]!.sequences as Item[])[0]!.provider = 'mailchimp';
  delete document.accounts![2]!.domain;
  document.contacts![1]!.email = 'not-an-email';
  document.assignments![0]!.status = 'waiting';
  document.messages![0]!.created_at = 'yesterday';
  document.events![1] = { ...document.events![1], type: 'liked' };
  return document;
}

/** A well-shaped document with unknown references, duplicate ids and an impossible event sequence. */
function inconsistentDocument(): RawDocument {
  const document = rawDocument();
  document.assignments![0]!.campaign_id = 999;
  document.messages![0]!.assignment_id = 998;
  (document.accounts![0]!.campaigns as Item[])[0]!.campaign_id = 997;
  document.contacts![2]!.email = 'BOB@globex.io';
  document.contacts!.push({ id: 401, email: 'someone@else.com' });
  document.assignments!.push({ ...document.assignments![1], id: 502, contact_id: 403 });
  document.events!.push(
    { id: 'evt-5', assignment_id: 503, type: 'completed' },
    { id: 'evt-6', assignment_id: 502, type: 'sequenced' },
  );
  return document;
}

async function writeTempFile(content: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'import-test-'));
  const file = join(directory, 'import.json');
  await writeFile(file, content);
  return file;
}

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const validDocument = (): ImportDocument => validImport(smallDocument());

/** What reads see of an imported organization: every campaign's detail and all raw items behind it. */
async function reads(orgId: number) {
  const campaigns = await listCampaigns(orgId);
  return {
    details: await Promise.all(
      campaigns.map(async (campaign) => toCampaignDetail(await getCampaign(orgId, campaign.campaignId))),
    ),
    raw: await readRawOrganization(orgId),
    accounts: await Promise.all([301, 302, 303].map((id) => getItem(keys.account(orgId, id)))),
  };
}

describe('import', () => {
  it('imports a small document and maintains the campaign aggregates', async () => {
    const { orgId } = await createOrganization('Import Inc');
    const report = await importFor(orgId, smallDocument());
    expect(report).toMatchObject({ assignmentsCreated: 4, messagesWritten: 1, eventsApplied: 4 });
    const detail = toCampaignDetail(await getCampaign(orgId, 101));
    expect(detail).toMatchObject({
      provider: null,
      providers: ['heyreach', 'smartlead'],
      sequence_ids: [201, 202],
      steps_count: 3,
      stats: { sent: 1, opened: 1, clicked: 0, bounced: 0, unsubscribed: 0, blocked: 0 },
      contacts: { pending_approval: 1, scheduled: 1, in_progress: 0, completed: 0, replied: 1 },
    });
  });

  it('maintains counters equal to a recomputation from the imported items', async () => {
    // Prepare
    const { orgId } = await createOrganization('Recompute Inc');

    // Act
    await applyImport(orgId, validDocument());

    // Assess
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
    expect(stored.analytics).toEqual({
      totalCampaigns: 2,
      totalContactsSent: 2,
      totalContactsOpened: 2,
      totalContactsReplied: 1,
      totalContactsScheduled: 1,
      totalBounced: 1,
      totalUnsubscribed: 0,
    });
  });

  it('reports every shape error with its JSON path', () => {
    // Act
    const result = validateImport(badlyShapedDocument());

    // Assess
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.path).sort()).toEqual(
      [
        '$.campaigns[0].sequences[0].provider',
        '$.accounts[2].domain',
        '$.contacts[1].email',
        '$.assignments[0].status',
        '$.messages[0].created_at',
        '$.events[1].type',
      ].sort(),
    );
    for (const error of result.errors) expect(error.message).not.toBe('');
  });

  it('reports every unknown reference, duplicate id and impossible event with its JSON path', () => {
    // Act
    const result = validateImport(inconsistentDocument());

    // Assess
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([...result.errors].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [
        { path: '$.accounts[0].campaigns[0].campaign_id', message: 'campaign 997 is not in the document' },
        { path: '$.contacts[4].id', message: 'duplicates contacts[0] (401)' },
        { path: '$.contacts[2].email', message: 'duplicates contacts[1] (bob@globex.io)' },
        { path: '$.assignments[0].campaign_id', message: 'campaign 999 is not in the document' },
        { path: '$.assignments[4].id', message: 'duplicates assignments[1] (502)' },
        { path: '$.messages[0].assignment_id', message: 'assignment 998 is not in the document' },
        {
          path: '$.events[4].type',
          message: 'completed is not possible for assignment 503, which is bounced at that point',
        },
        {
          path: '$.events[5].type',
          message: expect.stringContaining('sequenced is not possible for assignment 502'),
        },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
  });

  it("rejects a test's invalid fixture with its first problems before writing anything (importFor)", async () => {
    // Prepare
    const { orgId } = await createOrganization('Fixture Inc');

    // Act
    const { result, count } = await countRequests(() =>
      importFor(orgId, inconsistentDocument()).then(
        () => 'imported',
        (error: Error) => error.message,
      ),
    );

    // Assess
    expect(result).toContain("The test's import document is invalid");
    expect(result).toContain('$.accounts[0].campaigns[0].campaign_id');
    expect(result).toContain('and 3 more');
    expect(count).toBe(0);
    expect(await listCampaigns(orgId)).toEqual([]);
  });

  it.each([
    { name: 'badly shaped', content: () => JSON.stringify(badlyShapedDocument()), errors: 6 },
    { name: 'inconsistent', content: () => JSON.stringify(inconsistentDocument()), errors: 8 },
    { name: 'not JSON', content: () => '{"campaigns": [', errors: 1 },
  ])('rejects a $name file through the operator command without a single DynamoDB request', async (spec) => {
    // Prepare
    const { orgId } = await createOrganization('Rejected Inc');
    const file = await writeTempFile(spec.content());

    // Act
    const { result, count } = await countRequests(() => commands.import!.run({ org: String(orgId) }, [file]));

    // Assess
    expect(result.exitCode).toBe(1);
    expect((result.json as { errors: unknown[] }).errors).toHaveLength(spec.errors);
    expect(result.text).toContain('nothing was imported');
    expect(count).toBe(0);
    expect(await listCampaigns(orgId)).toEqual([]);
    expect(await getItem(keys.analytics(orgId))).toBeUndefined();
    expect(await getItem(keys.contact(orgId, { id: 401, email: 'ann@acme.com' }))).toBeUndefined();
    expect(await getItem(keys.assignment(orgId, 501))).toBeUndefined();
    expect(await getItem(keys.account(orgId, 301))).toBeUndefined();
  });

  it('gives identical reads after importing the same file twice and reports the second time as existing', async () => {
    // Prepare
    const { orgId } = await createOrganization('Twice Inc');
    const first = await applyImport(orgId, validDocument());
    const afterFirst = await reads(orgId);

    // Act
    const second = await applyImport(orgId, validDocument());

    // Assess
    expect(await reads(orgId)).toEqual(afterFirst);
    expect(afterFirst.details).toHaveLength(2);
    // A first load takes the bulk path; the same items again, the per-change path.
    expect(first).toMatchObject({
      assignmentsCreated: 4,
      messagesWritten: 1,
      eventsApplied: 4,
      path: 'bulk',
    });
    expect(second).toEqual({
      campaigns: 2,
      accounts: 3,
      contacts: 4,
      assignmentsCreated: 0,
      assignmentsExisting: 4,
      messagesWritten: 0,
      eventsApplied: 0,
      eventsDuplicate: 4,
      jobs: 1,
      exclusions: 1,
      path: 'transactional',
    });
  });
});
