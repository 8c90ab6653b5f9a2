/**
 * Settings the provider's configuration (index.ts) and its interaction pages
 * (interactions.ts) share, in a module of their own: index.ts loads the pages
 * and oidc-provider only when the first protocol request comes.
 */

/** How long a sign-in may take, from the authorization request to the new password (`ttl.Interaction`). */
export const INTERACTION_TTL_SECONDS = 60 * 60;

/** Every scope the provider knows; the first-party client is granted all of them. */
export const SCOPES = ['openid', 'email'] as const;
