import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ProviderFacts } from '#providers/contract.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { controlRequestRefusal, handleControl } from './control.ts';
import { BodyError, type JsonObject, matchPath, parseJson, type Reply, readBody, send } from './http.ts';
import { messageIdHeader, shareOf, uuid } from './ids.ts';
import type { EmulatorApi, NewLead, ProviderEmulatorSpec } from './spec.ts';
import {
  type Classification,
  type EmulatedLead,
  type EventType,
  type LeadStatus,
  newWorkspace,
  PlayRefused,
  type RequestLogEntry,
  type SentReply,
  type WebhookRegistration,
  type Workspace,
} from './state.ts';

/**
 * The core every provider emulator shares: one HTTP server per provider on
 * loopback, which answers the provider's API below its real base path and
 * the control API below `/_emulator/` (control.ts). An API request goes
 * through, in order: route lookup (404), the API key (401), queued faults
 * (429 / 500 / a dropped answer), the documented rate limit per API key
 * (429 with Retry-After in seconds), then the endpoint. Every API request is
 * logged without its query's API key; so is every webhook the emulator posts.
 */

export interface EmulatorSettings {
  host: string;
  port: number;
  playback: 'compressed' | 'manual';
  stepMs: number;
  replyShare: number;
  positiveShare: number;
  /** The rate limit's clock (epoch ms); Date.now unless a test holds time still to count a window's requests. */
  clock?: () => number;
  /**
   * The limit enforced in place of the documented one (ProviderFacts.rateLimit): a test stack's, whose
   * service paces to the same figure (LocalStackOptions.providerRateLimits), for the tests that do not
   * test pacing.
   */
  rateLimit?: ProviderFacts['rateLimit'];
}

/** The result of playing one event: where its payloads went and how each answered (0: not delivered). */
export interface PlayResult {
  delivered: { url: string; status: number }[];
}

const WEBHOOK_TIMEOUT_MS = 10_000;

export class EmulatorCore implements EmulatorApi {
  readonly spec: ProviderEmulatorSpec;
  readonly settings: EmulatorSettings;
  readonly workspaces = new Map<string, Workspace>();
  readonly requestLog: RequestLogEntry[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private stopped = false;
  /** `http://host:port` once listening: the only origin the control API takes requests from. */
  private origin = '';

  constructor(spec: ProviderEmulatorSpec, settings: EmulatorSettings) {
    this.spec = spec;
    this.settings = settings;
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        // A handler bug answers 500 rather than taking the emulator down.
        if (!response.headersSent) send(response, this.spec.error(500, String(error)));
        else response.destroy();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens, and answers the base URL a connection's `base_url` takes. */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.settings.port, this.settings.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://${this.settings.host}:${port}`;
    return `${this.origin}${this.spec.basePath}`;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const workspace of this.workspaces.values()) {
      for (const lead of workspace.leads) this.clearTimers(lead);
    }
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  // --- workspaces ---------------------------------------------------------

  workspace(apiKey: string): Workspace {
    let workspace = this.workspaces.get(apiKey);
    if (!workspace) {
      const workspaceId = uuid();
      workspace = newWorkspace(
        apiKey,
        workspaceId,
        `sender-${workspaceId.slice(0, 8)}@emulated-mailbox.example`,
      );
      this.workspaces.set(apiKey, workspace);
    }
    return workspace;
  }

  // --- EmulatorApi --------------------------------------------------------

  now(): string {
    return new Date().toISOString();
  }

  enroll(workspace: Workspace, newLead: NewLead): EmulatedLead {
    const lead: EmulatedLead = {
      ...newLead,
      status: 'active',
      addedAt: this.now(),
      messages: [],
      replies: [],
      timers: [],
    };
    workspace.leads.push(lead);
    if (this.settings.playback === 'compressed') this.schedule(workspace, lead);
    return lead;
  }

  setStatus(lead: EmulatedLead, status: LeadStatus): void {
    lead.status = status;
    if (status !== 'active') this.clearTimers(lead);
  }

  recordReply(workspace: Workspace, reply: Omit<SentReply, 'id' | 'at'>): SentReply {
    const recorded: SentReply = { id: uuid(), at: this.now(), ...reply };
    workspace.replies.push(recorded);
    return recorded;
  }

  registerWebhook(workspace: Workspace, registration: Omit<WebhookRegistration, 'id'>): WebhookRegistration {
    const recorded: WebhookRegistration = { id: uuid(), ...registration };
    workspace.webhooks.push(recorded);
    return recorded;
  }

  // --- playback -----------------------------------------------------------

  /**
   * Compressed playback: step 1 sent at +stepMs, opened at +2·stepMs; then a
   * replier (the `replyShare` of leads, by a hash of the lead) replies at
   * +3·stepMs with its classification, and the others get step 2 at +3·stepMs
   * and complete at +4·stepMs. Events the provider has no webhook for are skipped.
   */
  private schedule(workspace: Workspace, lead: EmulatedLead): void {
    const key = lead.email ?? lead.linkedinUrl ?? lead.leadId;
    const replies = shareOf(key, 'reply') < this.settings.replyShare;
    const plan: { steps: number; type: EventType; classification: Classification | null }[] = [
      { steps: 1, type: 'sent', classification: null },
      { steps: 2, type: 'opened', classification: null },
    ];
    if (replies) {
      const positive = shareOf(key, 'positive') < this.settings.positiveShare;
      const other: Classification = shareOf(key, 'negative') < 0.5 ? 'negative' : 'neutral';
      plan.push({ steps: 3, type: 'replied', classification: positive ? 'positive' : other });
    } else {
      plan.push(
        { steps: 3, type: 'sent', classification: null },
        { steps: 4, type: 'completed', classification: null },
      );
    }
    for (const step of plan) {
      if (!this.spec.supports.includes(step.type)) continue;
      const timer = setTimeout(() => {
        if (this.stopped || lead.status !== 'active') return;
        // Failures are in the request log (webhook entries); playback goes on.
        this.play(workspace, lead, step.type, step.classification, null).catch(() => undefined);
      }, step.steps * this.settings.stepMs);
      timer.unref();
      lead.timers.push(timer);
    }
  }

  private clearTimers(lead: EmulatedLead): void {
    for (const timer of lead.timers) clearTimeout(timer);
    lead.timers = [];
  }

  /** Plays one event of a lead now: updates its state and posts the native payloads to the workspace's webhooks. */
  async play(
    workspace: Workspace,
    lead: EmulatedLead,
    type: EventType,
    classification: Classification | null,
    replyText: string | null,
  ): Promise<PlayResult> {
    if (!this.spec.supports.includes(type)) {
      throw new PlayRefused(422, `${this.spec.provider} has no native webhook for a ${type} event`);
    }
    const campaign = workspace.campaigns.get(lead.campaignId);
    if (!campaign) throw new PlayRefused(404, 'the lead has no campaign');
    if (lead.status === 'removed') throw new PlayRefused(409, 'the lead was removed from its campaign');
    const at = this.now();
    let message = lead.messages.at(-1) ?? null;
    let reply = null;
    if (type === 'sent') {
      const step = lead.messages.length + 1;
      const company = lead.companyName ?? 'your team';
      message = {
        id: this.spec.newMessageId(),
        messageIdHeader: messageIdHeader(workspace.mailbox.split('@')[1]!),
        step,
        at,
        subject: step === 1 ? `Quick question for ${company}` : `Re: Quick question for ${company}`,
        text: `Hi ${lead.firstName ?? 'there'},\nStep ${step} of the emulated sequence.\n`,
      };
      lead.messages.push(message);
    } else if (message === null && type !== 'unsubscribed' && type !== 'completed') {
      throw new PlayRefused(409, `nothing was sent to the lead yet: a ${type} event needs a sent message`);
    }
    if (type === 'replied') {
      reply = {
        id: this.spec.newReplyId(),
        messageIdHeader: messageIdHeader('lead-mail.example'),
        at,
        text: replyText ?? `Thanks for reaching out, this is ${lead.firstName ?? 'the lead'}.`,
        subject: `Re: ${message?.subject ?? 'your email'}`,
        classification,
      };
      lead.replies.push(reply);
    }
    if (type === 'bounced') this.setStatus(lead, 'bounced');
    if (type === 'completed') this.setStatus(lead, 'completed');
    if (type === 'unsubscribed') {
      this.setStatus(lead, 'unsubscribed');
      if (lead.email) workspace.unsubscribed.add(lead.email.toLowerCase());
    }
    const delivered: PlayResult['delivered'] = [];
    for (const registration of workspace.webhooks) {
      if (registration.campaignId !== null && registration.campaignId !== campaign.id) continue;
      const events = this.spec.nativeEvents({
        type,
        classification,
        workspace,
        campaign,
        lead,
        at,
        message,
        reply,
        secretKey: registration.secretKey,
      });
      for (const event of events) {
        const wanted = registration.eventTypes;
        if (
          wanted &&
          !wanted.some((name) => name === 'all_events' || name.toLowerCase() === event.name.toLowerCase())
        ) {
          continue;
        }
        // One at a time, in order: a reply reaches the service before its classification.
        delivered.push({
          url: registration.url,
          status: await this.deliver(workspace, registration.url, event.payload),
        });
      }
    }
    return { delivered };
  }

  /** POSTs one payload; answers its status, or 0 when it could not be delivered (logged, never thrown). */
  private async deliver(workspace: Workspace, url: string, payload: JsonObject): Promise<number> {
    const entry: RequestLogEntry = {
      apiKey: workspace.apiKey,
      kind: 'webhook',
      method: 'POST',
      path: url,
      status: 0,
      at: this.now(),
    };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      entry.status = response.status;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
    }
    this.requestLog.push(entry);
    return entry.status;
  }

  // --- requests -----------------------------------------------------------

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://emulator.local');
    const method = (request.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith('/_emulator/')) {
      let body: unknown;
      try {
        const raw = await readBody(request);
        const refusal = controlRequestRefusal(
          {
            method,
            origin: request.headers.origin,
            contentType: request.headers['content-type'],
            hasBody: raw !== '',
          },
          this.origin,
        );
        if (refusal) {
          send(response, refusal);
          return;
        }
        body = parseJson(raw);
      } catch (error) {
        send(response, { status: 400, body: { error: (error as Error).message } });
        return;
      }
      send(
        response,
        await handleControl(this, method, url.pathname.slice('/_emulator'.length), url.searchParams, body),
      );
      return;
    }
    const entry: RequestLogEntry = {
      apiKey: null,
      kind: 'api',
      method,
      path: loggedPath(url),
      status: 0,
      at: this.now(),
    };
    this.requestLog.push(entry);
    const answer = (reply: Reply) => {
      entry.status = reply.status;
      send(response, reply);
    };

    const apiPath = url.pathname.startsWith(this.spec.basePath)
      ? url.pathname.slice(this.spec.basePath.length)
      : null;
    const matched = apiPath === null ? null : this.route(method, apiPath);
    if (!matched) return answer(this.spec.error(404, `Cannot ${method} ${url.pathname}`));

    const apiKey = this.spec.apiKeyOf(request, url);
    const workspace = apiKey === null ? undefined : this.workspaces.get(apiKey);
    if (!workspace) return answer(this.spec.error(401, 'Invalid or missing API key'));
    // The key the request carried: a workspace may have several (control API, `sameWorkspaceAs`).
    entry.apiKey = apiKey;

    const fault = workspace.faults[0];
    if (fault && fault.kind !== 'drop-after-accept') {
      fault.remaining -= 1;
      if (fault.remaining <= 0) workspace.faults.shift();
      if (fault.kind === 'server-error')
        return answer(this.spec.error(500, 'Internal server error (emulated fault)'));
      return answer(
        this.tooManyRequests(fault.retryAfterSeconds, new Date(Date.now() + fault.retryAfterSeconds * 1000)),
      );
    }

    const limited = this.rateLimit(workspace);
    if (limited) return answer(limited);

    let body: unknown;
    try {
      body = parseJson(await readBody(request));
    } catch (error) {
      return answer(this.spec.error(400, error instanceof BodyError ? error.message : 'Bad request'));
    }
    const reply = await matched.route.handle({
      workspace,
      params: matched.params,
      query: url.searchParams,
      body,
      emulator: this,
    });
    if (fault?.kind === 'drop-after-accept' && matched.route.addsLeads) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) workspace.faults.shift();
      // The provider did the work; the caller never hears of it.
      entry.status = 0;
      entry.error = 'dropped after accept (emulated fault)';
      request.socket.destroy();
      return;
    }
    answer(reply);
  }

  private route(method: string, apiPath: string) {
    for (const route of this.spec.routes) {
      if (route.method !== method) continue;
      const params = matchPath(route.path, apiPath);
      if (params) return { route, params };
    }
    return null;
  }

  /** The limit this emulator enforces: the documented one (shared/providers/<provider>/facts.ts) unless set. */
  private get limit(): ProviderFacts['rateLimit'] {
    return this.settings.rateLimit ?? PROVIDER_FACTS[this.spec.provider].rateLimit;
  }

  /** The limit per API key over a sliding window. */
  private rateLimit(workspace: Workspace): Reply | null {
    const { requests, perMs } = this.limit;
    const now = (this.settings.clock ?? Date.now)();
    workspace.recentRequests = workspace.recentRequests.filter((at) => at > now - perMs);
    if (workspace.recentRequests.length >= requests) {
      const resetAt = workspace.recentRequests[0]! + perMs;
      return this.tooManyRequests(Math.max(1, Math.ceil((resetAt - now) / 1000)), new Date(resetAt));
    }
    workspace.recentRequests.push(now);
    return null;
  }

  private tooManyRequests(retryAfterSeconds: number, resetAt: Date): Reply {
    const reply = this.spec.error(429, 'Too many requests');
    const { requests } = this.limit;
    return {
      ...reply,
      headers: {
        ...reply.headers,
        ...this.spec.rateLimitHeaders?.(requests, resetAt),
        'retry-after': String(retryAfterSeconds),
      },
    };
  }
}

/** The path and query as logged: never the API key (Smartlead sends it in the query, lemlist may: `access_token`). */
function loggedPath(url: URL): string {
  const query = new URLSearchParams(url.searchParams);
  query.delete('api_key');
  query.delete('access_token');
  const rest = query.toString();
  return rest ? `${url.pathname}?${rest}` : url.pathname;
}
