import { connectProvider } from '#domain/provider-keys.ts';
import { linkSequence } from '#domain/sequence-links.ts';
import type { Provider } from '#schemas/import.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { emulatorControl } from './provider-emulator-http.ts';

/** What `POST /provider-connections` takes to connect to a workspace at the stack's emulator. */
export interface EmulatedConnectionBody {
  provider: Provider;
  api_key: string;
  base_url: string;
}

/**
 * A workspace at the local stack's emulator of `provider` (with `apiKey`, or one the emulator
 * makes up), and the body that connects to it: connecting verifies the key with the provider,
 * so a test's connection points at an emulator that knows the key.
 */
export async function emulatedConnection(
  stack: Pick<LocalStack, 'providerApiUrls'>,
  provider: Provider,
  apiKey?: string,
): Promise<EmulatedConnectionBody> {
  const baseUrl = stack.providerApiUrls[provider];
  const made = await emulatorControl(() => baseUrl)<{ apiKey: string }>(
    'POST',
    '/workspaces',
    apiKey === undefined ? {} : { apiKey },
  );
  return { provider, api_key: made.apiKey, base_url: baseUrl };
}

/**
 * For a test without a local stack: connects `orgId` to a workspace at an emulator of `provider`
 * started for the purpose (and stopped at once: a connection's record is all the test needs), through
 * the domain, which verifies the key with the emulator as with a real provider.
 */
export async function connectAtEmulator(orgId: number, provider: Provider, apiKey?: string) {
  const emulators = await startProviderEmulators({ playback: 'manual' });
  try {
    const account = await emulatedConnection({ providerApiUrls: emulators.urls }, provider, apiKey);
    // The emulator is on loopback over http, which only the local stack's policy allows.
    return await connectProvider(
      orgId,
      { provider, apiKey: account.api_key, baseUrl: account.base_url },
      { policy: { allowLoopback: true } },
    );
  } finally {
    await emulators.stop();
  }
}

/**
 * A campaign made at the stack's emulator of `provider` in the workspace of `apiKey`, and `sequenceId`
 * of the organization linked to it on `connectionId`: what the request catalogue's provider-link
 * requests name (reading a link needs one; linking asks the provider for the campaign).
 */
export async function linkedEmulatorCampaign(
  stack: Pick<LocalStack, 'providerApiUrls'>,
  link: { orgId: number; provider: Provider; apiKey: string; connectionId: number; sequenceId: number },
): Promise<string> {
  const baseUrl = stack.providerApiUrls[link.provider];
  const made = await emulatorControl(() => baseUrl)<{ id: string | number }>('POST', '/campaigns', {
    apiKey: link.apiKey,
    name: `Sequence ${link.sequenceId}`,
  });
  const externalId = String(made.id);
  await linkSequence(link.orgId, {
    sequenceId: link.sequenceId,
    connectionId: link.connectionId,
    provider: link.provider,
    externalId,
  });
  return externalId;
}
