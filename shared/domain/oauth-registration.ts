import {
  MAX_REGISTRATIONS_PER_HOUR,
  UNAPPROVED_REGISTRATION_TTL_SECONDS,
} from '#definitions/oauth-limits.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import type { RegistrableGrantType, TokenEndpointAuthMethod } from '#schemas/oauth-clients.ts';
import { oauth } from '#store/oauth.ts';
import { RedirectUriRefused, RegistrationLimitReached } from './errors.ts';
import { newClientId, newClientSecret } from './oauth-clients.ts';
import { redirectUriProblem } from './oauth-redirect-uris.ts';

/**
 * Dynamic client registration (RFC 7591): anyone may register a client,
 * which belongs to no organization until a person of one approves it on the
 * consent page (`approveAssistant`). A registration nobody approves expires
 * after 30 days. One source address may register at most
 * MAX_REGISTRATIONS_PER_HOUR clients per hour of the clock: a counter item
 * per address and hour, raised by one conditional UpdateItem that refuses to
 * pass the limit (only registrations that would be written count).
 */

/** What a client registers: its metadata, validated by its schema (`#schemas/oauth-clients.ts`). */
export interface ClientRegistration {
  redirectUris: string[];
  clientName: string | null;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: RegistrableGrantType[];
}

/** The registered client: its id, its secret (confidential clients only, shown this once), and its metadata. */
export interface RegisteredClient extends ClientRegistration {
  clientId: string;
  clientSecret: string | null;
  /** Epoch seconds. */
  issuedAt: number;
}

/**
 * Registers a client for `sourceAddress`. Throws RedirectUriRefused when a
 * redirect URI is not https or http on a loopback host, or has a fragment, and
 * RegistrationLimitReached when the address registered its hour's share;
 * neither writes anything. The redirect URIs are kept as the client wrote
 * them: it repeats one exactly in its authorization requests.
 */
export async function registerClient(
  registration: ClientRegistration,
  sourceAddress: string,
): Promise<RegisteredClient> {
  for (const uri of registration.redirectUris) {
    const problem = redirectUriProblem(uri, 'client');
    if (problem) throw new RedirectUriRefused(uri, problem);
  }
  const issuedAt = Math.floor(Date.now() / 1000);
  const hour = Math.floor(issuedAt / 3600);
  const nextHour = (hour + 1) * 3600;
  if (!(await oauth.admitRegistration(sourceAddress, hour, MAX_REGISTRATIONS_PER_HOUR, nextHour + 3600))) {
    throw new RegistrationLimitReached(MAX_REGISTRATIONS_PER_HOUR, nextHour - issuedAt);
  }
  const clientId = newClientId();
  const clientSecret = registration.tokenEndpointAuthMethod === 'none' ? null : newClientSecret();
  await oauth.putDynamicClient({
    clientId,
    kind: 'dynamic',
    name: registration.clientName,
    redirectUris: registration.redirectUris,
    secretHash: clientSecret === null ? null : hashSecret(clientSecret),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    grantTypes: registration.grantTypes,
    createdAt: new Date(issuedAt * 1000).toISOString(),
    expiresAt: issuedAt + UNAPPROVED_REGISTRATION_TTL_SECONDS,
  });
  return { ...registration, clientId, clientSecret, issuedAt };
}
