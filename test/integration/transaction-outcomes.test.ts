import { describe, expect, it } from 'vitest';
import { applyImport, validateImport } from '#admin/import.ts';
import { upsertAccount } from '#domain/accounts.ts';
import { createAssignments, type NewAssignment } from '#domain/assignments.ts';
import { findSequence, getCampaign } from '#domain/campaigns.ts';
import { getContact } from '#domain/contacts.ts';
import { AlreadyTaken, CampaignNotFound, QualificationTargetMissing } from '#domain/errors.ts';
import { createOrganization } from '#domain/organizations.ts';

/*
 * The domain's outcomes of a cancelled transaction, read from the names the
 * store gives its conditions (shared/store/transactions.ts), against DynamoDB
 * Local: which item of a batch failed, and what its failing means.
 *
 *   campaign 101: sequence 201 (email); contacts 401..404; assignment 501 (contact 401, sequence 201)
 */

async function prepare(): Promise<number> {
  const { orgId } = await createOrganization('Outcomes Inc');
  const result = validateImport({
    campaigns: [
      {
        id: 101,
        name: 'Fintech CFOs',
        created_at: '2026-04-01T09:00:00.000Z',
        sequences: [{ id: 201, provider: 'smartlead', channel: 'email', steps: [] }],
      },
    ],
    contacts: [401, 402, 403, 404].map((id) => ({ id, email: `contact${id}@example.com` })),
    assignments: [
      {
        id: 501,
        campaign_id: 101,
        sequence_id: 201,
        contact_id: 401,
        status: 'scheduled',
        created_at: '2026-04-10T00:00:00.000Z',
      },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  await applyImport(orgId, result.document);
  return orgId;
}

async function newAssignment(orgId: number, assignmentId: number, contactId: number): Promise<NewAssignment> {
  const campaign = (await getCampaign(orgId, 101))!;
  return {
    assignmentId,
    sequence: findSequence(campaign, 201)!,
    contact: (await getContact(orgId, { id: contactId, email: `contact${contactId}@example.com` }))!,
    status: 'pending-approval',
    createdAt: '2026-05-01T00:00:00.000Z',
  };
}

describe('createAssignments: the outcome of each assignment of a batch', () => {
  it('tells a taken id and a taken sequence from the created ones, whatever their place in the batch', async () => {
    // Prepare: 501 exists (contact 401 in sequence 201)
    const orgId = await prepare();
    const inputs = [
      await newAssignment(orgId, 601, 402),
      await newAssignment(orgId, 501, 403),
      await newAssignment(orgId, 602, 401),
      await newAssignment(orgId, 603, 404),
    ];

    // Act
    const outcomes = await createAssignments(orgId, 101, inputs);

    // Assess
    expect(outcomes).toEqual([
      { outcome: 'created', assignmentId: 601 },
      { outcome: 'exists', reason: 'id-taken' },
      { outcome: 'exists', reason: 'sequence-taken' },
      { outcome: 'created', assignmentId: 603 },
    ]);
  });

  it('answers contact-changed for a guarded contact that changed since it was read', async () => {
    // Prepare: contact 402 read, then given an assignment in the sequence
    const orgId = await prepare();
    const stale = await newAssignment(orgId, 701, 402);
    await createAssignments(orgId, 101, [await newAssignment(orgId, 702, 402)]);

    // Act
    const outcomes = await createAssignments(orgId, 101, [await newAssignment(orgId, 703, 403), stale], {
      guarded: true,
    });

    // Assess
    expect(outcomes).toEqual([{ outcome: 'created', assignmentId: 703 }, { outcome: 'contact-changed' }]);
  });

  it('refuses a campaign that does not exist', async () => {
    const orgId = await prepare();
    const input = await newAssignment(orgId, 801, 402);
    await expect(createAssignments(orgId, 999, [input])).rejects.toThrow(CampaignNotFound);
  });
});

describe('upsertAccount: what a failed condition means', () => {
  const account = (id: number, domain: string, campaignId = 101) => ({
    id,
    name: `Account ${id}`,
    domain,
    campaigns: [{ campaign_id: campaignId, score: 0.5, signals: [] }],
  });

  it('refuses a domain another account holds, and a qualification into a campaign that does not exist', async () => {
    const orgId = await prepare();
    await upsertAccount(orgId, account(1, 'acme.com'), false);
    await expect(upsertAccount(orgId, account(2, 'acme.com'), false)).rejects.toThrow(AlreadyTaken);
    await expect(upsertAccount(orgId, account(3, 'globex.io', 999), false)).rejects.toThrow(
      QualificationTargetMissing,
    );
  });
});
