import {
  type ClientRegistration,
  type RegisteredClient,
  registerClient,
} from '#domain/oauth-registration.ts';

/** A registration (RFC 7591) as validated by its schema, and the address it came from. */
export interface NewClientRegistration {
  readonly registration: ClientRegistration;
  /** The caller's source address: its registrations per hour are limited. */
  readonly sourceAddress: string;
}

/**
 * 1. Every redirect URI must be https, or http on a loopback host, without a fragment
 *    (RedirectUriRefused names the URI and why); nothing is written otherwise.
 * 2. Count the registration against its source address's hour (RegistrationLimitReached past
 *    the limit, with the seconds until the next hour).
 * 3. Store the client, of no organization, with a fresh id and, for a confidential client, a
 *    secret of which only the hash is kept; it expires unless an organization approves it.
 * 4. Return the client id, the secret (the only time it is shown) and the registered metadata.
 *
 * `POST /oauth/register`.
 */
export async function registerOAuthClient({
  registration,
  sourceAddress,
}: NewClientRegistration): Promise<RegisteredClient> {
  return registerClient(registration, sourceAddress);
}
