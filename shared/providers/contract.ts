import type { Provider } from '#definitions/providers.ts';
import type { MappedPayload } from './activity.ts';

/**
 * What every provider's folder (shared/providers/<name>/) gives the service,
 * typed here so that the registry (registry.ts) can demand each part of
 * each provider: its facts (`ProviderFacts`), its outbound client
 * (`ProviderClient`) and its webhook adapter (`PayloadMapper`).
 *
 * The outbound side of a provider connection: one client per provider
 * (`<name>/client.ts`) that turns the
 * service's operations (enroll leads in a campaign, find a lead already
 * enrolled, stop a lead, reply in a lead's thread) into that provider's
 * documented HTTP calls and reads its answers. A client does no I/O itself:
 * every request goes through the `ProviderHttp` it is given, which the caller
 * builds (SSRF-safe transport, a token bucket per connection, request
 * counting), so clients are pure request builders and response readers.
 */

/** One HTTP request to the provider's API. `path` is below the connection's base URL and starts with `/`. */
export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Query parameters (the API key too, where the provider takes it there: Smartlead). */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/** The provider's answer: its status and its body parsed as JSON (null when empty or not JSON). */
export interface ProviderResponse {
  status: number;
  /** Seconds from a `Retry-After` header, when the response had one. */
  retryAfterSeconds: number | null;
  body: unknown;
}

/**
 * Sends one request. It throws `ProviderApiError` kind `unavailable` on a
 * timeout or a connection failure; it never throws for an HTTP status (the
 * client reads the status).
 */
export type ProviderHttp = (request: ProviderRequest) => Promise<ProviderResponse>;

/** What a client needs of a connection besides the transport. */
export interface ProviderCredentials {
  apiKey: string;
}

/** A contact to add to a provider campaign, with the assignment's snippet variables. */
export interface LeadToEnroll {
  /** The caller's reference for the lead in the outcome (the assignment id, as a string). */
  ref: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  companyDomain: string | null;
  title: string | null;
  linkedinUrl: string | null;
  /** Snippet variables, by name (`^[A-Za-z][A-Za-z0-9_]{0,63}$`), sent as the provider's custom fields. */
  variables: Readonly<Record<string, string>>;
}

/** What became of one lead of an add request. */
export type LeadOutcome =
  | { ref: string; status: 'enrolled'; leadId: string }
  /** A permanent refusal of this lead (invalid email, already in another campaign, blocked or unsubscribed at the provider). */
  | { ref: string; status: 'refused'; reason: string };

/** The lead at the provider, as the service recorded it at enrollment. */
export interface EnrolledLead {
  leadId: string;
  email: string | null;
  linkedinUrl: string | null;
}

/**
 * What a provider needs to answer a lead in its thread, taken from the
 * inbound reply webhook (the adapters, shared/providers/<name>/webhooks.ts, set
 * `replyThread` on a reply_received activity): provider-specific string fields,
 * such as Instantly's `reply_to_uuid` and `eaccount`.
 */
export type ReplyThread = Readonly<Record<string, string>>;

export interface ReplyToSend {
  subject: string;
  text: string;
  html: string;
}

export type ProviderApiErrorKind =
  /** 429: try again after `retryAfterSeconds`. */
  | 'rate-limited'
  /** 5xx, a timeout, a connection failure: try again with backoff. */
  | 'unavailable'
  /** A permanent refusal of the whole request: a bad API key (401/403), a campaign that does not exist (404), a request the API rejects (400/422). */
  | 'refused'
  /**
   * The campaign exists but takes no leads now (HeyReach: not running, or without a sender account):
   * a state of the campaign, not of its leads, so the leads wait and are tried again later. `message` says why.
   */
  | 'campaign-not-ready';

/** A request the provider did not carry out. `message` names the cause in a few words, never a secret or a lead's data. */
export class ProviderApiError extends Error {
  override readonly name = 'ProviderApiError';
  constructor(
    readonly kind: ProviderApiErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** What the provider told of the account a key belongs to, when its credential check accepts the key. */
export interface AcceptedCredentials {
  /**
   * The provider's workspace (or team) the key acts for, where the provider scopes its rate limit to it
   * (Instantly: connections to one workspace share one budget); null where the key's own limit applies.
   */
  workspaceId: string | null;
}

/** One campaign of the provider's own list, as the provider names and describes it. */
export interface ProviderCampaign {
  id: string;
  name: string;
  /** The provider's own word for its state, lower-cased (`active`, `paused`, `draft`, `in_progress`, …). */
  status: string;
  /**
   * Whether the campaign can take leads now: false where adding leads would be refused or would wait
   * (HeyReach answers 400 to a campaign that is not ACTIVE or IN_PROGRESS, or has no sender account).
   */
  acceptsLeads: boolean;
}

/** A page of the provider's campaigns, and where the next page starts (the provider's own cursor or offset), if any. */
export interface ProviderCampaignPage {
  campaigns: ProviderCampaign[];
  next: string | null;
}

export interface ProviderClient {
  readonly provider: Provider;
  /**
   * The provider's facts (its facts.ts, also in registry.ts): a caller that has loaded the client
   * reads the rate limit, batch size and base URL here, and need not import the registry as well.
   */
  readonly facts: ProviderFacts;
  /**
   * The provider's cheapest documented authenticated read, made before a connection is stored or
   * its key replaced: it resolves when the provider accepts the key, and throws ProviderApiError
   * `refused` (with the provider's status) when it refuses it, `unavailable` when it cannot be reached.
   */
  checkCredentials(http: ProviderHttp, credentials: ProviderCredentials): Promise<AcceptedCredentials>;
  /**
   * One page of the provider's own list of campaigns, from `cursor` (null: the first page; else a
   * `next` this method returned). A provider that does not page answers everything at once, `next`
   * null. Throws ProviderApiError.
   */
  listCampaigns(
    http: ProviderHttp,
    credentials: ProviderCredentials,
    cursor: string | null,
  ): Promise<ProviderCampaignPage>;
  /**
   * Adds up to the provider's `maxLeadsPerRequest` leads (its facts.ts) to
   * a campaign, and returns one outcome per lead (by `ref`, any order). A lead the campaign holds
   * already is `enrolled` with its existing id, never added twice. May issue several requests
   * (Smartlead's add answers counts, so the ids are read back). Throws ProviderApiError.
   *
   * `onOutcome`, when given, hears each lead's outcome as soon as it is known, before the
   * rest of the batch (Smartlead: after each lead's read-back), so the caller can record it
   * at once; a client whose add answers every lead at once may call it once per lead at the
   * end, or not at all. It is awaited: a rejection ends `enroll` with that error. The leads
   * it heard of are in the returned outcomes too.
   */
  enroll(
    http: ProviderHttp,
    credentials: ProviderCredentials,
    campaignId: string,
    leads: readonly LeadToEnroll[],
    onOutcome?: (outcome: LeadOutcome) => Promise<void>,
  ): Promise<LeadOutcome[]>;
  /**
   * The id of the lead in that campaign when the provider has it, else null: asked before
   * adding again a lead whose earlier attempt may have reached the provider.
   */
  findEnrolled(
    http: ProviderHttp,
    credentials: ProviderCredentials,
    campaignId: string,
    lead: LeadToEnroll,
  ): Promise<string | null>;
  /** Stops the lead in the campaign (pause, or remove where the provider cannot pause); a lead gone already is no error. */
  stop(
    http: ProviderHttp,
    credentials: ProviderCredentials,
    campaignId: string,
    lead: EnrolledLead,
  ): Promise<void>;
  /**
   * Answers the lead in its thread from the mailbox (or LinkedIn account) that wrote to it; returns
   * the provider's id of the reply when it says. Absent where the API cannot reply in thread.
   */
  reply?(
    http: ProviderHttp,
    credentials: ProviderCredentials,
    thread: { campaignId: string; lead: EnrolledLead; replyThread: ReplyThread },
    message: ReplyToSend,
  ): Promise<{ providerMessageId: string | null }>;
}

/** How a provider's API takes the key: a query parameter, a bearer token, HTTP Basic (empty user) or a header. */
export interface ProviderAuth {
  scheme: 'query' | 'bearer' | 'basic' | 'header';
  /** The query parameter or header that carries it (the facts.ts of each provider cites the page that says so). */
  name: string;
}

/**
 * What the service knows of a provider's public API, from its documentation
 * (each provider's facts.ts cites the page of every figure): the outbound
 * clients keep below the limit and batch within the size; the local emulators
 * (infra/local/provider-emulators/<name>/) enforce both, so the same figures
 * are the contract on both sides.
 */
export interface ProviderFacts {
  /** The provider's name as messages spell it ("Smartlead refused this API key (401)"). */
  displayName: string;
  /** The public API's base URL: a connection without `base_url` uses it. */
  defaultBaseUrl: string;
  auth: ProviderAuth;
  /** Leads one add request may carry (1 where the API adds one lead per request). */
  maxLeadsPerRequest: number;
  /** The documented limit: at most `requests` per `perMs` milliseconds (per key, or per workspace where the provider says). */
  rateLimit: { requests: number; perMs: number };
  /**
   * What names the thread of a lead's reply at the provider (its reply webhook gives it), where its API
   * can answer the lead in that thread; null where it cannot (docs/providers.md, Replies through the provider).
   */
  replyThreadNamedBy: string | null;
}

/** A provider's webhook adapter: its native payload (any JSON value, untrusted) to the activities it reports. */
export type PayloadMapper = (payload: unknown) => MappedPayload;
