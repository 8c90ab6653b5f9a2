import { type ContactThread, readContactThread as read } from '#domain/campaign-contacts.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the campaign and the assignment (CampaignNotFound; AssignmentNotFound when it is
 *    another campaign's or another organization's).
 * 2. Read its messages from its thread's index, the newest 100.
 * 3. Return the campaign's name, the contact with its status and enrollment, and the messages
 *    oldest first.
 *
 * The dashboard's contact page (a campaign's contact and its message thread).
 */
export function readContactThread(
  input: ForOrganization & { campaignId: number; assignmentId: number },
): Promise<ContactThread> {
  return read(input.orgId, input.campaignId, input.assignmentId);
}
