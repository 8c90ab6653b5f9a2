import type { Command } from '#admin/command.ts';
import { expectPositionals, requiredId, requiredString, UsageError } from '#admin/flags.ts';
import { listText } from '#admin/format.ts';
import { identityDirectory } from '#admin/identity-directory.ts';
import { MEMBER_ROLES, type MemberRole } from '#domain/members.ts';
import { addMember } from '#use-cases/add-member.ts';
import { listMembers } from '#use-cases/list-members.ts';
import { removeMember } from '#use-cases/remove-member.ts';

/** `member …`: the people who sign in to an organization's dashboard, and their roles. */

function roleFlag(raw: string): MemberRole {
  if (!(MEMBER_ROLES as readonly string[]).includes(raw))
    throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as MemberRole;
}

export const memberCommands: Record<string, Command> = {
  'member add': {
    usage: 'member add --org ID --email EMAIL --role admin|viewer',
    summary: 'Add a person to an organization as admin or viewer.',
    flags: { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const email = requiredString(flags, 'email');
      const role = roleFlag(requiredString(flags, 'role'));
      const added = await addMember({
        orgId,
        email,
        role,
        actor: 'operator',
        directory: identityDirectory(),
      });
      const how = added.oneTimePassword
        ? `\nOne-time password (shown once; a new password is chosen at first sign-in): ${added.oneTimePassword}`
        : added.invited
          ? '\nInvited: the identity provider emailed a temporary password.'
          : '\nThe person already had an account: they sign in with it.';
      return {
        json: { orgId, ...added.member, oneTimePassword: added.oneTimePassword, invited: added.invited },
        text: `${added.member.email} is ${added.member.role} of organization ${orgId}${how}`,
      };
    },
  },
  'member list': {
    usage: 'member list --org ID',
    summary: 'List an organization’s members.',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const members = await listMembers({ orgId });
      const text = listText(
        ['EMAIL', 'ROLE', 'ADDED', 'ADDED BY'],
        members.map((member) => [member.email, member.role, member.addedAt, member.addedBy]),
        `No members in organization ${orgId}`,
      );
      return { json: { members }, text };
    },
  },
  'member remove': {
    usage: 'member remove --org ID --email EMAIL',
    summary: 'Remove a person from an organization.',
    flags: { org: { type: 'string' }, email: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const removed = await removeMember({ orgId, email: requiredString(flags, 'email'), actor: 'operator' });
      return {
        json: { orgId, ...removed },
        text: `Removed ${removed.email} (${removed.role}) from organization ${orgId}`,
      };
    },
  },
};
