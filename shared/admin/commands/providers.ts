import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  type Flags,
  optionalString,
  requiredId,
  requiredString,
  validatedFlags,
} from '#admin/flags.ts';
import { listText, table } from '#admin/format.ts';
import { ConfigurationError, configuration, VARIABLES } from '#platform/config.ts';
import { PROVIDERS } from '#schemas/import.ts';
import {
  listProviderCampaignsEndpoint,
  putSequenceProviderLinkEndpoint,
} from '#schemas/provider-campaigns.ts';
import {
  createProviderConnectionEndpoint,
  listProviderUnmatchedEndpoint,
  type ProviderConnection,
  type UnmatchedProviderEvent,
} from '#schemas/provider-connections.ts';
import { checkProviderConnection } from '#use-cases/check-provider-connection.ts';
import { createProviderConnectionForOrganization } from '#use-cases/create-provider-connection.ts';
import { deleteProviderConnection } from '#use-cases/delete-provider-connection.ts';
import { deleteSequenceProviderLink } from '#use-cases/delete-sequence-provider-link.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { getProviderConnection } from '#use-cases/get-provider-connection.ts';
import { listProviderCampaigns } from '#use-cases/list-provider-campaigns.ts';
import { listProviderConnections } from '#use-cases/list-provider-connections.ts';
import { listProviderUnmatched } from '#use-cases/list-provider-unmatched.ts';
import { putSequenceProviderLink } from '#use-cases/put-sequence-provider-link.ts';
import { rotateProviderWebhookUrl } from '#use-cases/rotate-provider-webhook-url.ts';

/**
 * `provider …` and `sequence link|unlink`: provider connections for operators,
 * through the same use cases and request schemas as the API. Webhook URLs are
 * below the target's API URL (the local stack's, or the deployed stack's
 * `ApiUrl` output, or PUBLIC_BASE_URL).
 */

/** The target's API URL, for the webhook URLs the commands show. */
function apiBaseUrl(): string {
  const url = configuration().publicBaseUrl;
  if (!url) {
    throw new ConfigurationError(
      `No API URL to build webhook URLs with: start the local stack, name a deployed --stack, or set ${VARIABLES.publicBaseUrl}`,
    );
  }
  return url.replace(/\/$/, '');
}

/** Where the webhook URLs point, and who asks: the operator, who is shown every connection's URL. */
const location = { baseUrl: apiBaseUrl, scope: 'read-write' } as const;

/** A connection as the commands print it with --json. */
const connectionJson = (connection: ProviderConnection) => ({
  connectionId: connection.id,
  provider: connection.provider,
  webhookUrl: connection.webhook_url,
  createdAt: connection.created_at,
  status: connection.status,
  lastSuccessAt: connection.last_success_at,
  lastError: connection.last_error,
});

const CONNECTION_COLUMNS = ['CONNECTION', 'PROVIDER', 'CREATED', 'WEBHOOK URL'];
const connectionRow = (connection: ProviderConnection) => [
  connection.id,
  connection.provider,
  connection.created_at,
  connection.webhook_url,
];

const describeHealth = (connection: ProviderConnection) =>
  connection.status === 'ok'
    ? `Connection ${connection.id} (${connection.provider}) is ok: the provider accepted its API key at ${connection.last_success_at}`
    : `Connection ${connection.id} (${connection.provider}) is failing: ${connection.last_error?.message} (${connection.last_error?.at})`;

const UNMATCHED_COLUMNS = ['RECEIVED', 'EVENT', 'KIND', 'REASON'];
const unmatchedRow = (event: UnmatchedProviderEvent) => [
  event.received_at,
  event.event_type,
  event.kind,
  event.reason,
];

const connectionFlags = { org: { type: 'string' }, connection: { type: 'string' } } as const;

/** `--org` and `--connection`: whose connection, of an organization that exists (OrganizationNotFound). */
async function connectionOf(flags: Flags): Promise<{ orgId: number; path: { id: number } }> {
  const orgId = requiredId(flags, 'org');
  const path = { id: requiredId(flags, 'connection') };
  await getOrganization({ orgId });
  return { orgId, path };
}

export const providerCommands: Record<string, Command> = {
  'provider connect': {
    usage: `provider connect --org ID --provider ${PROVIDERS.join('|')} --api-key KEY [--base-url URL]`,
    summary: 'Connect a provider account (Smartlead, Instantly, lemlist, HeyReach).',
    flags: {
      org: { type: 'string' },
      provider: { type: 'string' },
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const body = validatedFlags(createProviderConnectionEndpoint.body, {
        provider: requiredString(flags, 'provider'),
        api_key: requiredString(flags, 'api-key'),
        base_url: optionalString(flags, 'base-url'),
      });
      const connection = await createProviderConnectionForOrganization({ orgId, body, ...location });
      return {
        json: {
          connectionId: connection.id,
          provider: connection.provider,
          webhookUrl: connection.webhook_url,
        },
        text: `Connected ${connection.provider} as connection ${connection.id}\nWebhook URL (paste it into ${connection.provider}): ${connection.webhook_url}`,
      };
    },
  },
  'provider list': {
    usage: 'provider list --org ID',
    summary: 'List an organization’s provider connections.',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      await getOrganization({ orgId });
      const { connections } = await listProviderConnections({ orgId, ...location });
      return {
        json: { connections: connections.map(connectionJson) },
        text: listText(CONNECTION_COLUMNS, connections.map(connectionRow), 'No provider connections'),
      };
    },
  },
  'provider get': {
    usage: 'provider get --org ID --connection ID',
    summary: 'Show one provider connection.',
    flags: connectionFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const connection = await getProviderConnection({ ...(await connectionOf(flags)), ...location });
      return {
        json: connectionJson(connection),
        text: table(CONNECTION_COLUMNS, [connectionRow(connection)]),
      };
    },
  },
  'provider disconnect': {
    usage: 'provider disconnect --org ID --connection ID',
    summary: 'Delete a provider connection.',
    flags: connectionFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const target = await connectionOf(flags);
      await deleteProviderConnection(target);
      return {
        json: { orgId: target.orgId, connectionId: target.path.id, deleted: true },
        text: `Disconnected provider connection ${target.path.id}`,
      };
    },
  },
  'provider rotate-webhook-url': {
    usage: 'provider rotate-webhook-url --org ID --connection ID',
    summary: 'Replace a connection’s webhook URL.',
    flags: connectionFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const connection = await rotateProviderWebhookUrl({ ...(await connectionOf(flags)), ...location });
      return {
        json: {
          connectionId: connection.id,
          provider: connection.provider,
          webhookUrl: connection.webhook_url,
        },
        text: `New webhook URL of connection ${connection.id} (the previous one is refused from now on): ${connection.webhook_url}`,
      };
    },
  },
  'provider check': {
    usage: 'provider check --org ID --connection ID',
    summary: 'Check a connection’s API key with the provider.',
    flags: connectionFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const connection = await checkProviderConnection({ ...(await connectionOf(flags)), ...location });
      return { json: connectionJson(connection), text: describeHealth(connection) };
    },
  },
  'provider unmatched': {
    usage: 'provider unmatched --org ID --connection ID [--take N] [--cursor C]',
    summary: 'List provider events that matched nothing.',
    flags: { ...connectionFlags, take: { type: 'string' }, cursor: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const query = validatedFlags(listProviderUnmatchedEndpoint.query, {
        take: optionalString(flags, 'take'),
        cursor: optionalString(flags, 'cursor'),
      });
      const page = await listProviderUnmatched({ ...(await connectionOf(flags)), query });
      const more = page.next ? `More: --cursor '${page.next}'` : undefined;
      return {
        json: page,
        text: listText(UNMATCHED_COLUMNS, page.data.map(unmatchedRow), 'No unmatched events', more),
      };
    },
  },
  'provider campaigns': {
    usage: 'provider campaigns --org ID --connection ID [--cursor C]',
    summary: 'List the campaigns of a connection’s provider account.',
    flags: { ...connectionFlags, cursor: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const query = validatedFlags(listProviderCampaignsEndpoint.query, {
        cursor: optionalString(flags, 'cursor'),
      });
      const page = await listProviderCampaigns({ ...(await connectionOf(flags)), query });
      const rows = page.data.map((campaign) => [
        campaign.id,
        campaign.status,
        campaign.accepts_leads ? 'takes leads' : 'takes no leads now',
        campaign.name,
      ]);
      const more = page.next ? `More: --cursor '${page.next}'` : undefined;
      return {
        json: page,
        text: listText(['ID', 'STATUS', 'LEADS', 'NAME'], rows, 'No campaigns at the provider', more),
      };
    },
  },
  'sequence link': {
    usage: 'sequence link --org ID --sequence ID --connection ID --external-id PROVIDER_CAMPAIGN_ID',
    summary: 'Link a sequence to a campaign at the provider.',
    flags: {
      org: { type: 'string' },
      sequence: { type: 'string' },
      connection: { type: 'string' },
      'external-id': { type: 'string' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const path = { sequenceId: requiredId(flags, 'sequence') };
      const body = validatedFlags(
        putSequenceProviderLinkEndpoint.body,
        {
          connection_id: requiredId(flags, 'connection'),
          provider_campaign_id: requiredString(flags, 'external-id').trim(),
        },
        { provider_campaign_id: 'external-id' },
      );
      await getOrganization({ orgId });
      const link = await putSequenceProviderLink({ orgId, path, body });
      return {
        json: link,
        text: [
          `Linked sequence ${link.sequence_id} (campaign ${link.campaign_id}) to ${link.provider} campaign ${link.provider_campaign_id} on connection ${link.connection_id}`,
          ...(link.warning ? [`Warning: ${link.warning}`] : []),
        ].join('\n'),
      };
    },
  },
  'sequence unlink': {
    usage: 'sequence unlink --org ID --sequence ID',
    summary: 'Remove a sequence’s provider link.',
    flags: { org: { type: 'string' }, sequence: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const path = { sequenceId: requiredId(flags, 'sequence') };
      await getOrganization({ orgId });
      const link = await deleteSequenceProviderLink({ orgId, path });
      return {
        json: link,
        text: `Unlinked sequence ${link.sequence_id} from ${link.provider} campaign ${link.provider_campaign_id}`,
      };
    },
  },
};
