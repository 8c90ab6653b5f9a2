import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { validateImport } from '#admin/import.ts';
import { getCampaign } from '#domain/campaigns.ts';
import { DomainError, SequenceNotFound, SequenceProviderMismatch } from '#domain/errors.ts';
import { createOrganization } from '#domain/organizations.ts';
import { findLinkedSequence, linkSequence, sequenceLinkOf, unlinkSequence } from '#domain/sequence-links.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';
import { sequenceHomes } from '#store/sequence-homes.ts';
import { handler as getCampaignHandler } from '../../functions/get-campaign/handler.ts';
import { handler as listCampaignsHandler } from '../../functions/list-campaigns/handler.ts';
import { importFor } from '../support/import.ts';
import { invoke } from '../support/invoke.ts';
import { countRequests } from '../support/request-counter.ts';

/*
 * Sequences linked to their provider's campaign (`external_id`): by the
 * import and by linkSequence, found by findLinkedSequence with two requests
 * (the link's GetItem, then the campaign's Query: its item with its counter shards);
 * a sequence is found through its home (the campaign that holds it) the same way.
 *
 *   campaign 101: sequence 201 (smartlead, external id "1001"), 202 (heyreach)
 *   campaign 102: sequence 203 (instantly, a UUID on connection 7), 204 (smartlead)
 */

type Item = Record<string, unknown>;

const INSTANTLY_ID = '8f14e45f-ceea-467a-9575-b3e1d8a2c0aa';

const document = (): Item => ({
  campaigns: [
    {
      id: 101,
      name: 'Fintech CFOs',
      sequences: [
        { id: 201, provider: 'smartlead', channel: 'email', steps: [], external_id: '1001' },
        { id: 202, provider: 'heyreach', channel: 'linkedin', steps: [] },
      ],
    },
    {
      id: 102,
      name: 'Retail Ops',
      sequences: [
        {
          id: 203,
          provider: 'instantly',
          channel: 'email',
          steps: [],
          external_id: INSTANTLY_ID,
          connection_id: 7,
        },
        { id: 204, provider: 'smartlead', channel: 'email', steps: [] },
      ],
    },
  ],
});

async function importDocument(orgId: number, raw: Item): Promise<void> {
  await importFor(orgId, raw);
}

async function prepare(): Promise<number> {
  const { orgId } = await createOrganization('Links Inc');
  await importDocument(orgId, document());
  return orgId;
}

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** Which campaign and sequence a provider campaign finds, and on which connection. */
async function found(
  orgId: number,
  provider: 'smartlead' | 'instantly' | 'lemlist' | 'heyreach',
  id: string,
) {
  const linked = await findLinkedSequence(orgId, provider, id);
  return (
    linked && {
      campaignId: linked.campaign.campaignId,
      sequenceId: linked.sequence.id,
      connectionId: linked.connectionId,
    }
  );
}

describe('sequence links', () => {
  it('finds the sequences an import names with their provider campaign ids', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const smartlead = await found(orgId, 'smartlead', '1001');
    const instantly = await found(orgId, 'instantly', INSTANTLY_ID);
    const otherProvider = await found(orgId, 'instantly', '1001');
    const unknown = await found(orgId, 'smartlead', '9999');

    // Assess
    expect(smartlead).toEqual({ campaignId: 101, sequenceId: 201, connectionId: null });
    expect(instantly).toEqual({ campaignId: 102, sequenceId: 203, connectionId: 7 });
    expect(otherProvider).toBeNull();
    expect(unknown).toBeNull();
    expect(await getItem(keys.sequenceLink(orgId, 'smartlead', '1001'))).toMatchObject({
      campaignId: 101,
      sequenceId: 201,
      connectionId: null,
    });
  });

  it('finds a linked sequence with two requests', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const counted = await countRequests(() => findLinkedSequence(orgId, 'smartlead', '1001'));
    const missing = await countRequests(() => findLinkedSequence(orgId, 'smartlead', 'nope'));

    // Assess
    expect(counted.result?.sequence.id).toBe(201);
    expect(counted.byCommand).toEqual({ GetItem: 1, Query: 1 });
    expect(missing.byCommand).toEqual({ GetItem: 1 });
  });

  it('links a sequence with linkSequence', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const linked = await linkSequence(orgId, {
      sequenceId: 202,
      connectionId: 3,
      provider: 'heyreach',
      externalId: '55501',
    });

    // Assess
    expect(linked).toEqual({
      campaignId: 101,
      sequenceId: 202,
      provider: 'heyreach',
      externalId: '55501',
      connectionId: 3,
    });
    expect(await found(orgId, 'heyreach', '55501')).toEqual({
      campaignId: 101,
      sequenceId: 202,
      connectionId: 3,
    });
    const campaign = await getCampaign(orgId, 101);
    expect(campaign.sequences.map((sequence) => [sequence.id, sequence.external_id])).toEqual([
      [201, '1001'],
      [202, '55501'],
    ]);
  });

  it('moves a provider campaign linked to another sequence, which loses it', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    await linkSequence(orgId, {
      sequenceId: 204,
      connectionId: 2,
      provider: 'smartlead',
      externalId: '1001',
    });

    // Assess
    expect(await found(orgId, 'smartlead', '1001')).toEqual({
      campaignId: 102,
      sequenceId: 204,
      connectionId: 2,
    });
    expect((await getCampaign(orgId, 101)).sequences[0]).toMatchObject({
      id: 201,
      external_id: null,
      connection_id: null,
    });
  });

  it('ignores the old provider campaign of a relinked sequence', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    await linkSequence(orgId, {
      sequenceId: 201,
      connectionId: null,
      provider: 'smartlead',
      externalId: '2002',
    });

    // Assess
    expect(await getItem(keys.sequenceLink(orgId, 'smartlead', '1001'))).toBeDefined();
    expect(await found(orgId, 'smartlead', '1001')).toBeNull();
    expect(await found(orgId, 'smartlead', '2002')).toEqual({
      campaignId: 101,
      sequenceId: 201,
      connectionId: null,
    });
  });

  it('keeps links on a re-import of a file without external ids, and follows one that changes them', async () => {
    // Prepare
    const orgId = await prepare();
    await linkSequence(orgId, {
      sequenceId: 202,
      connectionId: 3,
      provider: 'heyreach',
      externalId: '55501',
    });
    const withoutIds = document();
    for (const campaign of withoutIds.campaigns as { sequences: Item[] }[]) {
      for (const sequence of campaign.sequences) {
        delete sequence.external_id;
        delete sequence.connection_id;
      }
    }
    const changed = document();
    const smartlead = (changed.campaigns as { sequences: Item[] }[])[0]!.sequences[0]!;
    smartlead.external_id = '3003';

    // Act
    await importDocument(orgId, withoutIds);
    const afterOldFile = await Promise.all([
      found(orgId, 'smartlead', '1001'),
      found(orgId, 'heyreach', '55501'),
      found(orgId, 'instantly', INSTANTLY_ID),
    ]);
    await importDocument(orgId, changed);

    // Assess
    expect(afterOldFile).toEqual([
      { campaignId: 101, sequenceId: 201, connectionId: null },
      { campaignId: 101, sequenceId: 202, connectionId: 3 },
      { campaignId: 102, sequenceId: 203, connectionId: 7 },
    ]);
    expect(await found(orgId, 'smartlead', '1001')).toBeNull();
    expect(await found(orgId, 'smartlead', '3003')).toMatchObject({ sequenceId: 201 });
  });

  it('unlinks a sequence re-imported with a null external id', async () => {
    // Prepare
    const orgId = await prepare();
    const unlinked = document();
    (unlinked.campaigns as { sequences: Item[] }[])[0]!.sequences[0]!.external_id = null;

    // Act
    await importDocument(orgId, unlinked);

    // Assess
    expect(await found(orgId, 'smartlead', '1001')).toBeNull();
  });

  it('keeps each imported sequence’s home, on the bulk path and the transactional one', async () => {
    // Prepare
    const orgId = await prepare();
    const { orgId: other } = await createOrganization('Homes Inc');

    // Act
    await importFor(other, document(), { path: 'transactional' });

    // Assess
    for (const organization of [orgId, other]) {
      expect(await getItem(keys.sequenceHome(organization, 201))).toMatchObject({ campaignId: 101 });
      expect(await getItem(keys.sequenceHome(organization, 204))).toMatchObject({ campaignId: 102 });
    }
  });

  it('reads a sequence’s link through its home: one GetItem and its campaign’s Query', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const counted = await countRequests(() => sequenceLinkOf(orgId, 203));

    // Assess
    expect(counted.result).toMatchObject({ campaignId: 102, externalId: INSTANTLY_ID, connectionId: 7 });
    expect(counted.byCommand).toEqual({ GetItem: 1, Query: 1 });
    const query = counted.calls.find((call) => call.operation === 'Query')!;
    expect((query.input.ExpressionAttributeValues as Item)[':prefix']).toBe(keys.campaign(orgId, 102).sk);
  });

  it('finds a sequence without a home, or whose home is stale, among every campaign', async () => {
    // Prepare
    const orgId = await prepare();
    await dynamo.send(new DeleteCommand({ TableName: tableName(), Key: keys.sequenceHome(orgId, 201) }));
    // A home naming a campaign that does not hold the sequence, as a later import that moved it could leave.
    await sequenceHomes.put(orgId, 101, [203]);

    // Act
    const homeless = await countRequests(() => sequenceLinkOf(orgId, 201));
    const stale = await sequenceLinkOf(orgId, 203);
    const unknown = countRequests(() => sequenceLinkOf(orgId, 999));

    // Assess
    expect(homeless.result).toMatchObject({ campaignId: 101, externalId: '1001' });
    expect(homeless.byCommand).toEqual({ GetItem: 1, Query: 1 });
    expect(stale).toMatchObject({ campaignId: 102, externalId: INSTANTLY_ID });
    await expect(unknown).rejects.toBeInstanceOf(SequenceNotFound);
  });

  it('links with two reads at once, the holder’s campaign, and one transaction', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const counted = await countRequests(() =>
      linkSequence(orgId, { sequenceId: 204, connectionId: 2, provider: 'smartlead', externalId: '1001' }),
    );

    // Assess: the home and the id's link (GetItem), the sequence's campaign and the holder's (Query).
    expect(counted.byCommand).toEqual({ GetItem: 2, Query: 2, TransactWriteItems: 1 });
    expect((await getCampaign(orgId, 101)).sequences[0]).toMatchObject({ id: 201, external_id: null });
    expect((await getCampaign(orgId, 102)).sequences[1]).toMatchObject({ id: 204, external_id: '1001' });
  });

  it('leaves one holder when two sequences take one provider campaign at once', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const links = await Promise.all(
      [201, 204].map((sequenceId) =>
        linkSequence(orgId, { sequenceId, connectionId: 2, provider: 'smartlead', externalId: '7777' }),
      ),
    );

    // Assess
    expect(links).toHaveLength(2);
    const carriers = [
      (await getCampaign(orgId, 101)).sequences[0]!,
      (await getCampaign(orgId, 102)).sequences[1]!,
    ]
      .filter((sequence) => sequence.external_id === '7777')
      .map((sequence) => sequence.id);
    expect(carriers).toHaveLength(1);
    expect(await found(orgId, 'smartlead', '7777')).toMatchObject({ sequenceId: carriers[0] });
  });

  it('unlinks a sequence found through its home', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const counted = await countRequests(() => unlinkSequence(orgId, 201));

    // Assess
    expect(counted.result).toMatchObject({ campaignId: 101, sequenceId: 201, externalId: '1001' });
    expect(counted.byCommand).toEqual({ GetItem: 1, Query: 1, TransactWriteItems: 1 });
    expect(await found(orgId, 'smartlead', '1001')).toBeNull();
  });

  it('does not find an unknown sequence', async () => {
    // Prepare
    const orgId = await prepare();

    // Act
    const attempt = linkSequence(orgId, {
      sequenceId: 999,
      connectionId: 1,
      provider: 'smartlead',
      externalId: 'x',
    });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(SequenceNotFound);
    await expect(attempt).rejects.toThrow('Sequence 999 not found');
    expect(await getItem(keys.sequenceLink(orgId, 'smartlead', 'x'))).toBeUndefined();
  });

  it('does not find another organization’s sequence', async () => {
    // Prepare
    await prepare();
    const { orgId: other } = await createOrganization('Other Inc');

    // Act
    const attempt = linkSequence(other, {
      sequenceId: 201,
      connectionId: 1,
      provider: 'smartlead',
      externalId: 'x',
    });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(SequenceNotFound);
  });

  it('refuses to link a sequence to another provider’s campaign', async () => {
    // Prepare
    const orgId = await prepare();
    const before = await getCampaign(orgId, 101);

    // Act
    const attempt = linkSequence(orgId, {
      sequenceId: 201,
      connectionId: 1,
      provider: 'lemlist',
      externalId: 'cam_x',
    });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(SequenceProviderMismatch);
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => error instanceof DomainError && error.kind === 'invalid',
    );
    await expect(attempt).rejects.toThrow('Sequence 201 is a smartlead sequence, not lemlist');
    expect(await getCampaign(orgId, 101)).toEqual(before);
  });

  it('refuses a file that gives one provider campaign to two sequences', () => {
    // Prepare
    const raw = document();
    (raw.campaigns as { sequences: Item[] }[])[1]!.sequences[1]!.external_id = '1001';

    // Act
    const result = validateImport(raw);

    // Assess
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      {
        path: '$.campaigns[1].sequences[1].external_id',
        message: "smartlead campaign 1001 is also sequence 201's",
      },
    ]);
  });

  it('shows no external id or connection in the API’s campaign resources', async () => {
    // Prepare
    const orgId = await prepare();
    await linkSequence(orgId, {
      sequenceId: 202,
      connectionId: 3,
      provider: 'heyreach',
      externalId: '55501',
    });

    // Act
    const detail = await invoke(getCampaignHandler, { orgId, path: { id: '101' } });
    const list = await invoke(listCampaignsHandler, { orgId });

    // Assess
    expect(detail.status).toBe(200);
    expect(list.status).toBe(200);
    for (const body of [detail.body, list.body]) {
      const text = JSON.stringify(body);
      for (const hidden of ['external_id', 'connection_id', '1001', '55501', INSTANTLY_ID]) {
        expect(text).not.toContain(hidden);
      }
    }
  });
});
