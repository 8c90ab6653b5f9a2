/**
 * The part of `oidc-provider` (v8, which ships no types) that the local
 * OpenID provider uses, typed from the library's source and documentation
 * (https://github.com/panva/node-oidc-provider/blob/v8.x/docs/README.md).
 */
declare module 'oidc-provider' {
  import type { JsonWebKey } from 'node:crypto';
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The Koa context oidc-provider passes to its configuration helpers, as far as they read or write it. */
  export interface KoaContextWithOIDC {
    body: unknown;
    type: string;
    set(field: string, value: string): void;
  }

  /** What a model stores through the adapter: its JSON properties. */
  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    consumed?: number;
  };

  /** Storage of one model (Session, Interaction, AuthorizationCode, Grant, …); device flow's lookup left out. */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export interface ClientMetadata {
    client_id: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    application_type?: 'web' | 'native';
    token_endpoint_auth_method?: string;
    grant_types?: string[];
    response_types?: string[];
    id_token_signed_response_alg?: string;
  }

  export interface CookieOptions {
    httpOnly?: boolean;
    sameSite?: 'strict' | 'lax' | 'none';
    secure?: boolean;
  }

  /** An error as the provider shows it (`renderError`): the OAuth error code and its description. */
  export interface ErrorOut {
    error: string;
    error_description?: string;
  }

  export interface Feature {
    enabled: boolean;
  }

  export interface Configuration {
    adapter?: (modelName: string) => Adapter;
    allowOmittingSingleRegisteredRedirectUri?: boolean;
    claims?: Record<string, string[] | null>;
    clientAuthMethods?: string[];
    clientBasedCORS?: (ctx: KoaContextWithOIDC, origin: string, client: unknown) => boolean;
    clients?: ClientMetadata[];
    cookies?: { keys?: string[]; long?: CookieOptions; short?: CookieOptions };
    enabledJWA?: { idTokenSigningAlgValues?: string[] };
    features?: {
      devInteractions?: Feature;
      pushedAuthorizationRequests?: Feature;
      resourceIndicators?: Feature;
      rpInitiatedLogout?: Feature & {
        logoutSource?: (ctx: KoaContextWithOIDC, form: string) => Promise<void>;
        postLogoutSuccessSource?: (ctx: KoaContextWithOIDC) => Promise<void>;
      };
      userinfo?: Feature;
    };
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>;
    jwks?: { keys: JsonWebKey[] };
    pkce?: { methods?: string[]; required?: () => boolean };
    renderError?: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<void>;
    responseTypes?: string[];
    scopes?: string[];
    subjectTypes?: string[];
    ttl?: Record<
      'AccessToken' | 'AuthorizationCode' | 'Grant' | 'IdToken' | 'Interaction' | 'Session',
      number
    >;
  }

  /** A login or consent in progress (`interactionDetails`). */
  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
  }

  export interface InteractionResults {
    login?: { accountId: string };
    consent?: { grantId: string };
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    readonly Grant: typeof Grant;
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: 'server_error', listener: (ctx: KoaContextWithOIDC, error: Error) => void): this;
  }

  export namespace errors {
    /** The interaction's cookie is missing, or its interaction or session has expired. */
    class SessionNotFound extends Error {}
  }

  export default Provider;
}
