import { describe, expect, it } from 'vitest';
import { applyImport, validateImport } from '#shared/admin/import.ts';
import { getCampaign, toCampaignDetail } from '#shared/domain/campaigns.ts';
import { createOrganization } from '#shared/domain/organizations.ts';
import { smallDocument } from '../support/fixtures.ts';

describe('import', () => {
  it('imports a small document and maintains the campaign aggregates', async () => {
    const { orgId } = await createOrganization('Import Inc');
    const result = validateImport(smallDocument());
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const report = await applyImport(orgId, result.document);
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
});
