import {
  disconnectProvider,
  listProviderConnections as listConnectionRecords,
} from '#domain/provider-connections.ts';
import { PROVIDERS, type Provider } from '#schemas/import.ts';
import { campaigns } from '#store/campaigns.ts';
import { createProviderConnectionForOrganization } from '#use-cases/create-provider-connection.ts';
import { listProviderConnections } from '#use-cases/list-provider-connections.ts';
import { putSequenceProviderLink } from '#use-cases/put-sequence-provider-link.ts';

/**
 * The demo organization connected to the local provider emulators, as a
 * newcomer would connect a real account (README "Watch the loop"): per
 * provider, a workspace at the emulator with a fixed demo API key, a
 * connection to it (`base_url` = the emulator), one emulator campaign per demo
 * sequence of that provider, linked to it, and the connection's webhook URL
 * registered at the emulator. Emulators keep nothing across a restart, so on a
 * kept store the same workspaces and campaigns (same key, same ids) are made
 * again and the webhook URLs registered again.
 */

/** The demo workspaces' API keys: local-only values, never a real provider's. */
export const demoProviderApiKey = (provider: Provider): string => `demo-${provider}-api-key`;

export interface DemoProviderReport {
  connections: number;
  linkedSequences: number;
}

/** The emulator's control API (its origin, `/_emulator/…`). */
async function control(apiBaseUrl: string, path: string, body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(new URL(`/_emulator/${path}`, apiBaseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`The ${path} call of the emulator at ${apiBaseUrl} failed (${response.status})`);
  return response.json();
}

export async function connectDemoToEmulators(
  orgId: number,
  apiUrl: string,
  providerApiUrls: Record<Provider, string>,
): Promise<DemoProviderReport> {
  const baseUrl = () => apiUrl;
  const [{ connections: existing }, records, all] = await Promise.all([
    // As the operator: each connection with its webhook URL, which the emulator posts to.
    listProviderConnections({ orgId, baseUrl, scope: 'read-write' }),
    listConnectionRecords(orgId),
    campaigns.list(orgId, { consistent: true }),
  ]);
  const report: DemoProviderReport = { connections: 0, linkedSequences: 0 };
  // The providers' emulators are independent: each is connected at once.
  await Promise.all(
    PROVIDERS.map(async (provider) => {
      const apiKey = demoProviderApiKey(provider);
      const emulatorUrl = providerApiUrls[provider];
      await control(emulatorUrl, 'workspaces', { apiKey });
      // A kept store's connection to an emulator on another port (a restart on a free port) is replaced.
      const kept = existing.find((each) => each.provider === provider);
      const stale = kept && records.find((each) => each.connectionId === kept.id)?.baseUrl !== emulatorUrl;
      if (kept && stale) await disconnectProvider(orgId, kept.id);
      const connection =
        (stale ? undefined : kept) ??
        (await createProviderConnectionForOrganization({
          orgId,
          body: { provider, api_key: apiKey, base_url: emulatorUrl },
          baseUrl,
        }));
      report.connections += 1;
      await control(emulatorUrl, 'webhooks', { apiKey, url: connection.webhook_url });
      for (const campaign of all) {
        for (const sequence of campaign.sequences.filter((each) => each.provider === provider)) {
          // A kept store names its campaign already: the emulator gets it back under the same id.
          const created = (await control(emulatorUrl, 'campaigns', {
            apiKey,
            name: `${campaign.name} (sequence ${sequence.id})`,
            ...(sequence.external_id ? { id: sequence.external_id } : {}),
          })) as { id: string };
          if (sequence.external_id !== created.id || sequence.connection_id !== connection.id) {
            // As a newcomer links: the emulator is asked for the campaign. Linking moves the provider
            // campaign id from whichever sequence held it.
            await putSequenceProviderLink({
              orgId,
              path: { sequenceId: sequence.id },
              body: { connection_id: connection.id, provider_campaign_id: created.id },
            });
          }
          report.linkedSequences += 1;
        }
      }
    }),
  );
  return report;
}
