import { defineHttpHandler } from '#api/http/endpoint.ts';
import { registrationRefusal, registrationRequestOf, registrationResponse } from '#api/oauth/registration.ts';
import { registerOAuthClient } from '#use-cases/register-oauth-client.ts';

/**
 * Dynamic client registration (RFC 7591): anyone may register a client, of no
 * organization until a person of one approves it on the consent page; each
 * source address registers at most MAX_REGISTRATIONS_PER_HOUR clients an hour
 * (shared/definitions/oauth-limits.ts).
 */
export const handler = defineHttpHandler(async (event) => {
  const read = registrationRequestOf(event);
  if ('refusal' in read) return read.refusal;
  try {
    const registered = await registerOAuthClient({
      registration: read.registration,
      sourceAddress: event.requestContext.identity.sourceIp,
    });
    return registrationResponse(registered);
  } catch (error) {
    return registrationRefusal(error);
  }
});
