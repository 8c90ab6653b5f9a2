import { type Html, html } from '#api/dashboard/html.ts';
import { seeOther } from '#api/dashboard/http.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { type DashboardPage, type PageRequest, pagePath } from '#api/dashboard/page.ts';
import { actionForm, secretOnce, table } from '#api/dashboard/widgets.ts';
import { formatDateTime, roleLabel } from '#api/dashboard/words.ts';
import { InputInvalid } from '#domain/errors.ts';
import { MEMBER_ROLES, type Member, type MemberRole } from '#domain/members.ts';
import { changeMemberRole } from '#use-cases/change-member-role.ts';
import { listMembers } from '#use-cases/list-members.ts';
import { removeMember } from '#use-cases/remove-member.ts';

/**
 * Who belongs to the organization and in which role. Admins invite people by
 * email with a role (at the identity provider, as `outreach-admin member add`
 * does: Cognito emails a temporary password, the local provider's one-time
 * password is shown once here), change roles and remove members; the
 * organization's last admin can be neither removed nor made a viewer.
 */

/** What each role may do, as the page explains it. */
const ROLE_HELP = 'Admins change settings and manage members; viewers see everything but change nothing.';

function roleOf(raw: string | undefined): MemberRole {
  const role = MEMBER_ROLES.find((each) => each === raw);
  if (!role) throw new InputInvalid(`role must be ${MEMBER_ROLES.join(' or ')}`);
  return role;
}

function roleSelect(id: string, selected: MemberRole, accessibleName?: string): Html {
  return html`<select id="${id}" name="role"${accessibleName ? html` aria-label="${accessibleName}"` : ''}>${MEMBER_ROLES.map(
    (role) =>
      html`<option value="${role}"${role === selected ? html` selected` : ''}>${roleLabel(role)}</option>`,
  )}</select>`;
}

/** A member's row: for an admin, a role picker and Remove. */
function memberRow({ base, frame, canChange }: PageRequest, member: Member, index: number): Html {
  const here = `${base}${pagePath('members')}`;
  const controls = canChange
    ? html`<td><form class="inline" method="post" action="${here}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="role"><input type="hidden" name="email" value="${member.email}">${roleSelect(`role-${index}`, member.role, `Role of ${member.email}`)} <button type="submit" aria-label="Change role of ${member.email}">Change role</button></form>
${actionForm(frame, here, { action: 'remove', email: member.email }, 'Remove', {
  danger: `Remove ${member.email} from the organization? They lose access on their next request.`,
  accessibleName: `Remove ${member.email}`,
})}</td>`
    : null;
  return html`<tr><th scope="row">${member.email}</th><td>${roleLabel(member.role)}</td><td>${formatDateTime(member.addedAt)}</td><td>${member.addedBy}</td>${controls}</tr>`;
}

export const membersPage: DashboardPage = {
  title: 'Members',
  notices: {
    role: 'The role was changed. It applies from the member’s next request.',
    removed: 'The member was removed. They lose access on their next request.',
  },
  async get(request) {
    const { orgId, base, frame, canChange } = request;
    const members = await listMembers({ orgId });
    const invite = canChange
      ? html`<h2>Invite a member</h2><form method="post" action="${base}${pagePath('members')}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="invite">
<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" autocomplete="off" required maxlength="254">
<label for="invite-role">Role</label>${roleSelect('invite-role', 'viewer')}
<p><button class="primary" type="submit">Invite</button></p></form>`
      : null;
    return html`<p>${ROLE_HELP}</p>
${table(
  'Members of the organization',
  ['Email', 'Role', 'Added', 'Added by', ...(canChange ? ['Change'] : [])],
  members.map((member, index) => memberRow(request, member, index)),
  'No members.',
)}${invite}`;
  },
  async post(request) {
    const { form, orgId, actor } = request;
    const action = form.get('action');
    const email = form.get('email') ?? '';
    switch (action) {
      case 'invite': {
        const role = roleOf(form.get('role'));
        // The use case (and the identity provider's client) loads with an invitation only.
        const { inviteMember } = await import('#use-cases/invite-member.ts');
        const { member, oneTimePassword, invited } = await inviteMember({ orgId, email, role, actor });
        const who = `${member.email} is a member as ${roleLabel(member.role).toLowerCase()}.`;
        return request.show(
          oneTimePassword
            ? html`<p class="notice ok" role="status">${who} Give them this one-time password: they choose their own at their first sign-in.</p>${secretOnce('One-time password:', 'one-time-password', oneTimePassword)}`
            : html`<p class="notice ok" role="status">${who} ${
                invited
                  ? 'The identity provider emailed them a temporary password.'
                  : 'They already have an account: they sign in with their own password.'
              }</p>`,
        );
      }
      case 'role': {
        const role = roleOf(form.get('role'));
        // The domain records each membership change in the audit log (as it does the CLI's), so the page
        // does not (`changed` would record it twice).
        await changeMemberRole({ orgId, email, role, actor });
        return seeOther(`${request.base}${pagePath('members')}?done=role`);
      }
      case 'remove':
        await removeMember({ orgId, email, actor });
        return seeOther(`${request.base}${pagePath('members')}?done=removed`);
      default:
        throw new InputInvalid('action must be invite, role or remove');
    }
  },
};
