/**
 * The emulators' in-memory state. One workspace per API key (what the real
 * providers call a workspace, team or organization), each with its campaigns,
 * the leads added to them (the lead object kept exactly as the add request
 * carried it), its registered webhooks, the replies sent through the reply
 * endpoint and the faults queued by the control API.
 */

export type LeadStatus = 'active' | 'paused' | 'removed' | 'unsubscribed' | 'bounced' | 'completed';

export type EventType = 'sent' | 'opened' | 'clicked' | 'replied' | 'bounced' | 'unsubscribed' | 'completed';
export const EVENT_TYPES: readonly EventType[] = [
  'sent',
  'opened',
  'clicked',
  'replied',
  'bounced',
  'unsubscribed',
  'completed',
];

export type Classification = 'positive' | 'negative' | 'neutral';
export const CLASSIFICATIONS: readonly Classification[] = ['positive', 'negative', 'neutral'];

export interface Campaign {
  id: string;
  name: string;
  createdAt: string;
  /** HeyReach: the LinkedIn account a lead added without one is sent from. */
  defaultSenderId: string;
  /** The provider's own word for the campaign's state, set through the control API; absent: running. */
  status?: string;
  /** HeyReach: the campaign's LinkedIn sender accounts, set through the control API; absent: `[defaultSenderId]`. */
  senderAccountIds?: string[];
}

/** One email (or LinkedIn message) of the sequence sent to a lead. */
export interface SentMessage {
  /** The provider's id of that send: Smartlead `stats_id`, Instantly `email_id`, lemlist `emailId`. */
  id: string;
  /** Its Message-ID header. */
  messageIdHeader: string;
  /** 1-based. */
  step: number;
  at: string;
  subject: string;
  text: string;
}

/** A reply of the lead, played by the emulator. */
export interface InboundReply {
  /** The provider's id of the received email (Instantly `email_id`; lemlist activity id). */
  id: string;
  messageIdHeader: string;
  at: string;
  text: string;
  subject: string;
  classification: Classification | null;
}

export interface EmulatedLead {
  /** The provider's id of the lead (Smartlead's is shared by the lead's campaigns). */
  leadId: string;
  campaignId: string;
  status: LeadStatus;
  /** The lead object exactly as the add request carried it. */
  received: unknown;
  addedAt: string;
  email: string | null;
  linkedinUrl: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  /** The mailbox (Smartlead, Instantly, lemlist) or LinkedIn account id (HeyReach) that writes to the lead. */
  senderAccount: string;
  /** Provider-specific ids kept with the lead (Smartlead's campaign_lead_map_id, HeyReach's conversation id). */
  providerIds: Record<string, string>;
  messages: SentMessage[];
  replies: InboundReply[];
  /** Pending compressed-playback steps: cleared when the lead stops or the emulator stops. */
  timers: NodeJS.Timeout[];
}

export interface WebhookRegistration {
  id: string;
  url: string;
  /** Only this campaign's events, when set. */
  campaignId: string | null;
  /** Only these native event names (any case), when set. */
  eventTypes: string[] | null;
  /** Smartlead echoes the webhook's secret key in its payloads. */
  secretKey: string | null;
}

/** A reply or message sent through the provider's reply endpoint. */
export interface SentReply {
  id: string;
  leadId: string;
  campaignId: string;
  at: string;
  /** The thread fields the request named (`email_stats_id`, `reply_to_uuid`, `conversationId`, …). */
  thread: Record<string, string>;
  subject: string | null;
  text: string | null;
  html: string | null;
}

export type FaultKind = 'rate-limit' | 'server-error' | 'drop-after-accept';
export interface Fault {
  kind: FaultKind;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RequestLogEntry {
  apiKey: string | null;
  /** `api`: a request to the provider API; `webhook`: a webhook the emulator posted. */
  kind: 'api' | 'webhook';
  method: string;
  /** The path and query without the API key (or the webhook URL). */
  path: string;
  /** 0: no answer (the socket was destroyed, or the webhook could not be delivered). */
  status: number;
  at: string;
  error?: string;
}

export interface Workspace {
  apiKey: string;
  /** Instantly and lemlist name the workspace in their payloads. */
  workspaceId: string;
  /** The mailbox the workspace's campaigns send from. */
  mailbox: string;
  campaigns: Map<string, Campaign>;
  leads: EmulatedLead[];
  /** Smartlead: one lead id per email across the workspace's campaigns. */
  leadIdsByEmail: Map<string, string>;
  /** Emails on the workspace's unsubscribe list. */
  unsubscribed: Set<string>;
  /** Emails on the workspace's block list. */
  blocked: Set<string>;
  webhooks: WebhookRegistration[];
  replies: SentReply[];
  faults: Fault[];
  /** Times (ms) of the requests inside the current rate-limit window. */
  recentRequests: number[];
}

export function newWorkspace(apiKey: string, workspaceId: string, mailbox: string): Workspace {
  return {
    apiKey,
    workspaceId,
    mailbox,
    campaigns: new Map(),
    leads: [],
    leadIdsByEmail: new Map(),
    unsubscribed: new Set(),
    blocked: new Set(),
    webhooks: [],
    replies: [],
    faults: [],
    recentRequests: [],
  };
}

/** Leads of a campaign still in it (a removed lead is gone from the provider's lists). */
export const leadsInCampaign = (workspace: Workspace, campaignId: string): EmulatedLead[] =>
  workspace.leads.filter((lead) => lead.campaignId === campaignId && lead.status !== 'removed');

export const sameEmail = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** An event the control API cannot play, with the status it answers. */
export class PlayRefused extends Error {
  override readonly name = 'PlayRefused';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
