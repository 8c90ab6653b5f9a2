import {
  type ContactSearch,
  type FoundContacts,
  findCampaignContacts as find,
} from '#domain/campaign-contacts.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the campaign (CampaignNotFound when it is not the organization's).
 * 2. With an email: the contact's assignments in this campaign (its item, then a batch read).
 *    With an enrollment state: the campaign's newest contacts of the status, a bounded window
 *    (`window` in the answer). Otherwise: the API's contact list page (its index and counters).
 * 3. Return the page of matching contacts, newest first, with their total.
 *
 * The dashboard's campaign page (GET /public/v1/campaigns/{id}/contacts is the list without the
 * email and enrollment filters).
 */
export function findCampaignContacts(
  input: ForOrganization & ContactSearch & { campaignId: number },
): Promise<FoundContacts> {
  const { orgId, campaignId, ...options } = input;
  return find(orgId, campaignId, options);
}
