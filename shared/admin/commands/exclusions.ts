import type { Command } from '#admin/command.ts';
import { expectPositionals, optionalString, requiredId, UsageError } from '#admin/flags.ts';
import { domainString, emailAddress } from '#schemas/params.ts';
import { addExclusion } from '#use-cases/add-exclusion.ts';

/** `exclusions add`: an email or a domain on an organization's exclusion list. */
export const exclusionCommands: Record<string, Command> = {
  'exclusions add': {
    usage: 'exclusions add --org ID (--email EMAIL | --domain DOMAIN)',
    summary: 'Add an email or a domain to an organization’s exclusion list.',
    flags: { org: { type: 'string' }, email: { type: 'string' }, domain: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const email = optionalString(flags, 'email');
      const domain = optionalString(flags, 'domain');
      if ((email === undefined) === (domain === undefined))
        throw new UsageError('Give exactly one of --email or --domain');
      // The API's own schemas: an email as a push takes it, a domain normalized as everywhere.
      let exclusion: { kind: 'email' | 'domain'; value: string };
      if (email !== undefined) {
        const parsed = emailAddress.safeParse(email);
        if (!parsed.success) throw new UsageError(`--email ${JSON.stringify(email)} is not an email address`);
        exclusion = { kind: 'email', value: parsed.data };
      } else {
        const parsed = domainString.safeParse(domain);
        if (!parsed.success) throw new UsageError(`--domain ${JSON.stringify(domain)} has no usable domain`);
        exclusion = { kind: 'domain', value: parsed.data };
      }
      const { kind, value } = await addExclusion({ orgId, ...exclusion });
      return { json: { orgId, kind, value }, text: `Excluded ${kind} ${value} for organization ${orgId}` };
    },
  },
};
