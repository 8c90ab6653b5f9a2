import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  optionalString,
  requiredId,
  requiredString,
  UsageError,
  wholeNumberFlag,
} from '#admin/flags.ts';
import { listText } from '#admin/format.ts';
import { DEFAULT_MCP_CLIENT_RATE, MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { RedirectUriRefused } from '#domain/errors.ts';
import { createOAuthClient } from '#use-cases/create-oauth-client.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { listOAuthClients } from '#use-cases/list-oauth-clients.ts';
import { revokeOAuthClient } from '#use-cases/revoke-oauth-client.ts';

/** `oauth-client …`: the MCP connector's OAuth clients. */
export const oauthClientCommands: Record<string, Command> = {
  'oauth-client create': {
    usage: 'oauth-client create --org ID --name NAME [--redirect-uri URI]... [--rate N]',
    summary: 'Create an OAuth client for the MCP server.',
    flags: {
      org: { type: 'string' },
      name: { type: 'string', description: 'the client’s name' },
      'redirect-uri': { type: 'string', multiple: true },
      rate: { type: 'string' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const name = requiredString(flags, 'name');
      const redirectUris = (flags['redirect-uri'] as string[] | undefined) ?? [];
      const rate = optionalString(flags, 'rate');
      const rateLimit =
        rate === undefined ? undefined : wholeNumberFlag('rate', rate, 1, MAX_MCP_CLIENT_RATE);
      try {
        const created = await createOAuthClient({ orgId, name, redirectUris, rateLimit });
        return {
          json: created,
          text: `Created OAuth client ${created.clientId}\nClient secret (shown once): ${created.clientSecret}`,
        };
      } catch (error) {
        // A URI the flag may not carry is bad usage (nothing was written), named as the operator typed it.
        if (error instanceof RedirectUriRefused)
          throw new UsageError(`--redirect-uri ${JSON.stringify(error.uri)} ${error.problem}`);
        throw error;
      }
    },
  },
  'oauth-client list': {
    usage: 'oauth-client list --org ID',
    summary: 'List an organization’s OAuth clients.',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      await getOrganization({ orgId });
      const clients = await listOAuthClients({ orgId });
      const text = listText(
        ['CLIENT', 'NAME', 'CREATED', 'RATE (REQUESTS/S)', 'REVOKED'],
        clients.map((client) => [
          client.clientId,
          client.name,
          client.createdAt,
          client.rateLimit ?? DEFAULT_MCP_CLIENT_RATE,
          client.revokedAt,
        ]),
        'No OAuth clients',
      );
      return { json: { clients }, text };
    },
  },
  'oauth-client revoke': {
    usage: 'oauth-client revoke --org ID --client CLIENT_ID',
    summary: 'Revoke an OAuth client and its tokens.',
    flags: { org: { type: 'string' }, client: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const clientId = requiredString(flags, 'client');
      await getOrganization({ orgId });
      const revoked = await revokeOAuthClient({ orgId, clientId });
      return { json: revoked, text: `Revoked OAuth client ${revoked.clientId} at ${revoked.revokedAt}` };
    },
  },
};
