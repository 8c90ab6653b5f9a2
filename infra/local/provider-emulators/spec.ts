import type { IncomingMessage } from 'node:http';
import type { Provider } from '#schemas/import.ts';
import type { JsonObject, Reply } from './http.ts';
import type {
  Campaign,
  Classification,
  EmulatedLead,
  EventType,
  InboundReply,
  LeadStatus,
  SentMessage,
  SentReply,
  WebhookRegistration,
  Workspace,
} from './state.ts';

/**
 * What each provider's emulator (smartlead.ts, instantly.ts, lemlist.ts,
 * heyreach.ts) gives the shared core (core.ts): where its API lives, how it
 * authenticates, its error shape, its id formats, its endpoints, and the
 * native webhook payloads of each event. The core does the rest the four
 * share: workspaces, rate limits, faults, the request log, playback and
 * webhook delivery, and the control API.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A lead as an add endpoint hands it to the core. */
export type NewLead = Omit<EmulatedLead, 'status' | 'addedAt' | 'messages' | 'replies' | 'timers'>;

/** The core's operations the endpoints use. */
export interface EmulatorApi {
  /** Stores the lead as active and, in compressed playback, starts its sequence. */
  enroll(workspace: Workspace, lead: NewLead): EmulatedLead;
  /** Sets the lead's status; any status but active stops its playback. */
  setStatus(lead: EmulatedLead, status: LeadStatus): void;
  recordReply(workspace: Workspace, reply: Omit<SentReply, 'id' | 'at'>): SentReply;
  registerWebhook(workspace: Workspace, registration: Omit<WebhookRegistration, 'id'>): WebhookRegistration;
  now(): string;
}

export interface RouteContext {
  workspace: Workspace;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body, undefined when empty. */
  body: unknown;
  emulator: EmulatorApi;
}

export interface Route {
  method: HttpMethod;
  /** Below the base path, with `:name` parameters. */
  path: string;
  /** An add request: what the drop-after-accept fault drops the answer of. */
  addsLeads?: boolean;
  handle(context: RouteContext): Reply | Promise<Reply>;
}

/** What a played event is about, for the payload builders. */
export interface EventContext {
  type: EventType;
  classification: Classification | null;
  workspace: Workspace;
  campaign: Campaign;
  lead: EmulatedLead;
  /** When it happened (ISO 8601). */
  at: string;
  /** The message the event is about: the one just sent for `sent`, else the last one sent. */
  message: SentMessage | null;
  /** The lead's reply, for `replied`. */
  reply: InboundReply | null;
  /** The webhook's secret key, for providers that echo it (Smartlead). */
  secretKey: string | null;
}

/** One native webhook delivery: the provider's event name (for subscription filters) and its payload. */
export interface NativeEvent {
  name: string;
  payload: JsonObject;
}

export interface ProviderEmulatorSpec {
  provider: Provider;
  /** The real API's base path, which `urls[provider]` ends with (`/api/v1`, `/api/v2`, …). */
  basePath: string;
  /** The API key a request carries, wherever the provider takes it; null when it carries none. */
  apiKeyOf(request: IncomingMessage, url: URL): string | null;
  /** An error answer in the provider's shape. */
  error(status: number, message: string): Reply;
  /** Headers the provider adds to a 429 besides Retry-After. */
  rateLimitHeaders?(limit: number, resetAt: Date): Record<string, string>;
  newCampaignId(): string;
  /** The id of a sent message (Smartlead stats_id, Instantly email_id, lemlist emailId). */
  newMessageId(): string;
  /** The id of a received reply. */
  newReplyId(): string;
  /** The events the provider has a native webhook for: the others are refused by the control API and skipped by playback. */
  supports: readonly EventType[];
  /** The native payloads of one event, in delivery order (a reply, then its classification). */
  nativeEvents(context: EventContext): NativeEvent[];
  routes: readonly Route[];
}
