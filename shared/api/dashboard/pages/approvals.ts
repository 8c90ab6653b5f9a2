import { idOf } from '#api/dashboard/forms.ts';
import { html } from '#api/dashboard/html.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { audit, type DashboardPage, pagePath } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
import { formatCount, formatDateTime, sequenceLabel } from '#api/dashboard/words.ts';
import type { ApprovalSelection } from '#domain/approvals.ts';
import { InputInvalid } from '#domain/errors.ts';
import { approveAssignments } from '#use-cases/approve-assignments.ts';
import { listApprovalCampaigns } from '#use-cases/list-approval-campaigns.ts';
import { listPendingApprovals } from '#use-cases/list-pending-approvals.ts';
import { rejectAssignments } from '#use-cases/reject-assignments.ts';

/**
 * A campaign's contacts waiting for approval: approve (they are scheduled,
 * and enrolled at the provider of a linked sequence) or reject (withdrawn)
 * the selected ones or all of them.
 */

const SHOWN = 100;

export const approvalsPage: DashboardPage = {
  title: 'Approvals',
  async get({ orgId, base, frame, canChange, query }) {
    const campaigns = await listApprovalCampaigns({ orgId });
    if (campaigns.length === 0) return html`<p class="muted">No campaigns yet.</p>`;
    const campaignId = query.campaign ? idOf(query.campaign, 'campaign') : campaigns[0]!.id;
    const pending = await listPendingApprovals({ orgId, campaignId, take: SHOWN });
    const sequences = campaigns.find((campaign) => campaign.id === campaignId)?.sequences ?? [];
    // A sequence is named by its provider and channel; two alike in one campaign are told apart by their place.
    const sequenceName = (sequenceId: number) => {
      const sequence = sequences.find((each) => each.id === sequenceId);
      if (!sequence) return '—';
      const label = sequenceLabel(sequence);
      const alike = sequences.filter((each) => sequenceLabel(each) === label);
      return alike.length > 1 ? `${label} ${alike.indexOf(sequence) + 1}` : label;
    };
    const picker = html`<form method="get" action="${base}${pagePath('approvals')}"><label for="campaign">Campaign</label>
<select id="campaign" name="campaign">${campaigns.map((campaign) => html`<option value="${campaign.id}"${campaign.id === campaignId ? html` selected` : ''}>${campaign.name}</option>`)}</select> <button type="submit">Show</button></form>`;
    const rows = pending.map(
      (contact) =>
        html`<tr>${canChange ? html`<td><input type="checkbox" name="ids" value="${contact.assignmentId}" id="pick-${contact.assignmentId}" aria-label="Select ${contact.email ?? contact.name ?? `assignment ${contact.assignmentId}`}"></td>` : null}<td>${contact.email ?? '—'}</td><td>${contact.name ?? '—'}</td><td>${contact.companyName ?? '—'}</td><td>${sequenceName(contact.sequenceId)}</td><td>${formatDateTime(contact.createdAt)}</td></tr>`,
    );
    const headings = ['Email', 'Name', 'Company', 'Sequence', 'Pushed'];
    const list = table(
      `Contacts waiting for approval (up to ${formatCount(SHOWN)}, newest first)`,
      canChange ? ['Select', ...headings] : headings,
      rows,
      'No contact is waiting for approval in this campaign.',
    );
    if (!canChange || pending.length === 0) return html`${picker}${list}`;
    return html`${picker}<form method="post" action="${base}${pagePath('approvals')}?campaign=${campaignId}">${csrfField(frame.csrfToken)}<input type="hidden" name="campaign" value="${campaignId}">
<label class="check" hidden><input type="checkbox" data-select-all="ids" hidden> Select all shown</label>${list}
<div class="actions"><button class="primary" type="submit" name="action" value="approve">Approve selected</button><button type="submit" name="action" value="reject">Reject selected</button>
<button type="submit" name="action" value="approve-all">Approve all</button><button class="danger" type="submit" name="action" value="reject-all" data-confirm="Reject every pending contact of this campaign?">Reject all</button></div></form>`;
  },
  async post(request) {
    const { form, orgId } = request;
    const campaignId = idOf(form.get('campaign'), 'campaign');
    const action = form.get('action') ?? '';
    if (!['approve', 'reject', 'approve-all', 'reject-all'].includes(action))
      throw new InputInvalid('action must be approve, reject, approve-all or reject-all');
    let selection: ApprovalSelection;
    if (action.endsWith('-all')) selection = { all: true };
    else {
      const ids = form.all('ids').map((id) => idOf(id, 'ids'));
      if (ids.length === 0) throw new InputInvalid('Select at least one contact');
      selection = { assignmentIds: ids };
    }
    const outcome = action.startsWith('approve')
      ? await approveAssignments({ orgId, campaignId, selection }).then((result) => ({
          done: result.approved,
          skipped: result.skipped,
        }))
      : await rejectAssignments({ orgId, campaignId, selection }).then((result) => ({
          done: result.rejected,
          skipped: result.skipped,
        }));
    const verb = action.startsWith('approve') ? 'approve' : 'reject';
    if (outcome.done.length > 0)
      await audit(request, {
        action: `assignments.${verb}`,
        target: `campaign ${campaignId}: ${outcome.done.length} (${outcome.done.slice(0, 20).join(', ')}${outcome.done.length > 20 ? ', …' : ''})`,
      });
    const summary = `${verb === 'approve' ? 'Approved' : 'Rejected'} ${outcome.done.length}; skipped ${outcome.skipped.length}${
      outcome.skipped.length > 0
        ? ` (${outcome.skipped
            .slice(0, 5)
            .map((skip) => `${skip.assignmentId}: ${skip.reason}`)
            .join('; ')})`
        : ''
    }.`;
    return request.show(html`<p class="notice ok" role="status">${summary}</p>`);
  },
};
