import { html } from '#api/dashboard/html.ts';
import type { DashboardPage } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
import { listMembers } from '#use-cases/list-members.ts';

/** Who belongs to the organization and in which role (the operator adds and removes them). */
export const membersPage: DashboardPage = {
  title: 'Members',
  async get({ orgId }) {
    const members = await listMembers({ orgId });
    return html`<p>Admins change settings; viewers see them. Members are added and removed by your operator with <code>outreach-admin member</code>.</p>
${table(
  'Members of the organization',
  ['Email', 'Role', 'Added', 'Added by'],
  members.map(
    (member) =>
      html`<tr><td>${member.email}</td><td>${member.role}</td><td>${member.addedAt.slice(0, 10)}</td><td>${member.addedBy}</td></tr>`,
  ),
  'No members.',
)}`;
  },
};
