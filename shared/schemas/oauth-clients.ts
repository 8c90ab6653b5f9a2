import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 3.8 KiB in oauth-token without them).

/**
 * The client metadata the MCP server's authorization server takes: a dynamic
 * registration's request body (RFC 7591 §2) and a client ID metadata
 * document. Members this server does not use are ignored. The redirect URIs'
 * own rules (https, or http on a loopback host; no fragment) are the
 * domain's (`#domain/oauth-redirect-uris.ts`).
 */

export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_LENGTH = 100;
/** Far longer than a callback URL needs, and short enough to keep a client item small. */
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** How a client authenticates at the token endpoint; `none` is a public client (PKCE only). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** The grants a registered client may use: the code flow, and refresh tokens with it. */
export const REGISTRABLE_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export type RegistrableGrantType = (typeof REGISTRABLE_GRANT_TYPES)[number];

const redirectUris = /* @__PURE__ */ (() =>
  z
    .array(z.string().check(z.maxLength(MAX_REDIRECT_URI_LENGTH)))
    .check(z.minLength(1), z.maxLength(MAX_REDIRECT_URIS)))();
const clientName = /* @__PURE__ */ (() =>
  z.string().check(z.minLength(1), z.maxLength(MAX_CLIENT_NAME_LENGTH)))();

/** RFC 7591 §2, with its defaults: a confidential client (`client_secret_basic`) of the code flow. */
export const clientRegistrationRequest = /* @__PURE__ */ (() =>
  z.object({
    redirect_uris: redirectUris,
    client_name: z.optional(clientName),
    token_endpoint_auth_method: z._default(z.enum(TOKEN_ENDPOINT_AUTH_METHODS), 'client_secret_basic'),
    grant_types: z.pipe(
      z
        ._default(z.array(z.enum(REGISTRABLE_GRANT_TYPES)).check(z.minLength(1)), ['authorization_code'])
        // A refresh token comes from a code, so a client without the code flow could get nothing.
        .check(z.refine((types) => types.includes('authorization_code'), 'must include authorization_code')),
      z.transform((types: RegistrableGrantType[]) => [...new Set(types)]),
    ),
    // The code flow is the only one, so `code` the only response type.
    response_types: z._default(z.array(z.literal('code')).check(z.minLength(1)), ['code']),
    scope: z
      ._default(z.string(), MCP_SCOPE)
      .check(
        z.refine(
          (scope) => scope.split(' ').every((requested) => requested === MCP_SCOPE),
          `the only scope is ${MCP_SCOPE}`,
        ),
      ),
  }))();

/**
 * A client ID metadata document (draft-ietf-oauth-client-id-metadata-document):
 * it names itself, its redirect URIs, and `none`, since nobody could keep a
 * secret a public document declares.
 */
export const clientMetadataDocument = /* @__PURE__ */ (() =>
  z.object({
    client_id: z.string(),
    redirect_uris: redirectUris,
    client_name: z.optional(clientName),
    token_endpoint_auth_method: z.literal('none'),
  }))();
