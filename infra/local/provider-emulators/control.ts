import type { EmulatorCore } from './core.ts';
import { idField, isRecord, type JsonValue, json, type Reply, stringField } from './http.ts';
import { randomApiKey } from './ids.ts';
import {
  CLASSIFICATIONS,
  type Classification,
  EVENT_TYPES,
  type EventType,
  type FaultKind,
  PlayRefused,
} from './state.ts';

/**
 * The control API, below `/_emulator/` on each emulator's port. It is not
 * part of any provider's API: tests and the local stack use it to set up
 * workspaces and campaigns, read what the provider received, queue faults,
 * and play lead events. See index.ts for the list.
 */

const FAULT_KINDS: readonly FaultKind[] = ['rate-limit', 'server-error', 'drop-after-accept'];

const refused = (status: number, error: string): Reply => json(status, { error });

/** What the control API checks of a request before reading it as a command. */
export interface ControlRequest {
  method: string;
  /** The `Origin` header, absent for a client that is no browser (curl, the tests, the local stack). */
  origin: string | undefined;
  contentType: string | undefined;
  hasBody: boolean;
}

/**
 * The refusal of a control request a web page could have sent, or null. The
 * control API has no authentication and listens on loopback, which a page a
 * developer visits can reach too: a browser sends a POST of text/plain, a
 * form or multipart there without asking first (no CORS preflight), and
 * names the page in `Origin`. So a request that names an origin other than
 * the emulator's own is refused (403), and every POST, and every request
 * with a body, must be `application/json` (415): a page may send JSON across
 * origins only after a preflight, which this server never answers.
 */
export function controlRequestRefusal(request: ControlRequest, ownOrigin: string): Reply | null {
  if (request.origin !== undefined && request.origin !== ownOrigin) {
    return refused(403, `the control API takes no requests from another origin (${ownOrigin} only)`);
  }
  const mediaType = request.contentType?.split(';')[0]?.trim().toLowerCase();
  if ((request.method === 'POST' || request.hasBody) && mediaType !== 'application/json') {
    return refused(415, 'the control API takes application/json only');
  }
  return null;
}

export async function handleControl(
  core: EmulatorCore,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): Promise<Reply> {
  const fields = isRecord(body) ? body : {};
  const apiKeyIn = (source: 'body' | 'query') =>
    source === 'body' ? stringField(fields, 'apiKey') : query.get('apiKey');

  if (method === 'POST' && path === '/workspaces') {
    const apiKey = stringField(fields, 'apiKey') ?? randomApiKey();
    // A second key of an existing workspace (Instantly: one workspace, several keys, one rate limit).
    const sameAs = stringField(fields, 'sameWorkspaceAs');
    const existing = sameAs === null ? undefined : core.workspaces.get(sameAs);
    if (sameAs !== null && !existing) return refused(404, 'unknown workspace');
    if (existing && core.workspaces.has(apiKey)) return refused(409, 'that apiKey has a workspace already');
    if (existing) core.workspaces.set(apiKey, existing);
    else core.workspace(apiKey);
    return json(201, { apiKey });
  }

  if (method === 'POST' && path === '/campaigns') {
    const apiKey = apiKeyIn('body');
    if (!apiKey) return refused(400, 'apiKey is required');
    const workspace = core.workspace(apiKey);
    const id = idField(fields, 'id') ?? core.spec.newCampaignId();
    if (workspace.campaigns.has(id)) return json(200, { id });
    workspace.campaigns.set(id, {
      id,
      name: stringField(fields, 'name') ?? `Emulated campaign ${id}`,
      createdAt: core.now(),
      defaultSenderId: String(100_000 + workspace.campaigns.size + 1),
    });
    return json(201, { id });
  }

  const campaignState = /^\/campaigns\/([^/]+)\/state$/.exec(path);
  if (method === 'POST' && campaignState) {
    const campaign = core.workspaces
      .get(apiKeyIn('body') ?? '')
      ?.campaigns.get(decodeURIComponent(campaignState[1]!));
    if (!campaign) return refused(404, 'unknown workspace or campaign');
    const status = stringField(fields, 'status');
    const senders = fields.senderAccountIds;
    if (
      senders !== undefined &&
      !(Array.isArray(senders) && senders.every((id) => /^\d+$/.test(String(id))))
    ) {
      return refused(400, 'senderAccountIds must be an array of numeric account ids');
    }
    if (status !== null) campaign.status = status;
    if (Array.isArray(senders)) campaign.senderAccountIds = senders.map(String);
    return json(200, {
      status: campaign.status ?? null,
      senderAccountIds: campaign.senderAccountIds ?? null,
    });
  }

  if (method === 'POST' && path === '/blocklist') {
    const apiKey = apiKeyIn('body');
    const email = stringField(fields, 'email');
    const list = stringField(fields, 'list') ?? 'unsubscribed';
    if (!apiKey || !email || (list !== 'unsubscribed' && list !== 'blocked')) {
      return refused(400, 'apiKey, email and list (unsubscribed | blocked) are required');
    }
    const workspace = core.workspace(apiKey);
    (list === 'blocked' ? workspace.blocked : workspace.unsubscribed).add(email.trim().toLowerCase());
    return json(200, { ok: true });
  }

  if (method === 'GET' && path === '/leads') {
    const workspace = core.workspaces.get(apiKeyIn('query') ?? '');
    if (!workspace) return refused(404, 'unknown workspace');
    const campaignId = query.get('campaignId');
    const leads = workspace.leads
      .filter((lead) => campaignId === null || lead.campaignId === campaignId)
      .map((lead) => ({
        leadId: lead.leadId,
        campaignId: lead.campaignId,
        status: lead.status,
        received: lead.received as JsonValue,
        addedAt: lead.addedAt,
        email: lead.email,
        linkedinUrl: lead.linkedinUrl,
        messagesSent: lead.messages.length,
        replies: lead.replies.length,
      }));
    return json(200, { leads });
  }

  if (path === '/requests' && (method === 'GET' || method === 'DELETE')) {
    const apiKey = query.get('apiKey');
    if (method === 'DELETE') {
      const kept = core.requestLog.filter((entry) => apiKey !== null && entry.apiKey !== apiKey);
      core.requestLog.splice(0, core.requestLog.length, ...kept);
      return json(200, { ok: true });
    }
    const requests = core.requestLog
      .filter((entry) => apiKey === null || entry.apiKey === apiKey)
      .map(({ apiKey: _omitted, error, ...entry }) => ({ ...entry, ...(error ? { error } : {}) }));
    return json(200, { requests });
  }

  if (method === 'GET' && path === '/replies') {
    const workspace = core.workspaces.get(apiKeyIn('query') ?? '');
    if (!workspace) return refused(404, 'unknown workspace');
    return json(200, { replies: workspace.replies.map((reply) => ({ ...reply })) });
  }

  if (method === 'POST' && path === '/faults') {
    const workspace = core.workspaces.get(apiKeyIn('body') ?? '');
    const kind = stringField(fields, 'kind') as FaultKind | null;
    const count = typeof fields.count === 'number' ? fields.count : 1;
    const retryAfterSeconds = typeof fields.retryAfterSeconds === 'number' ? fields.retryAfterSeconds : 1;
    if (!workspace) return refused(404, 'unknown workspace');
    if (!kind || !FAULT_KINDS.includes(kind) || !Number.isSafeInteger(count) || count < 1) {
      return refused(400, `kind (${FAULT_KINDS.join(' | ')}) and a positive count are required`);
    }
    workspace.faults.push({
      kind,
      remaining: count,
      retryAfterSeconds: Math.max(0, Math.round(retryAfterSeconds)),
    });
    return json(200, { ok: true });
  }

  if (method === 'POST' && path === '/webhooks') {
    const workspace = core.workspaces.get(apiKeyIn('body') ?? '');
    const url = stringField(fields, 'url');
    if (!workspace) return refused(404, 'unknown workspace');
    if (!url || !URL.canParse(url)) return refused(400, 'url is required');
    const registration = core.registerWebhook(workspace, {
      url,
      campaignId: idField(fields, 'campaignId'),
      eventTypes: null,
      secretKey: stringField(fields, 'secretKey'),
    });
    return json(201, { id: registration.id });
  }

  const eventPath = /^\/leads\/([^/]+)\/events$/.exec(path);
  if (method === 'POST' && eventPath) {
    const leadId = decodeURIComponent(eventPath[1]!);
    const type = stringField(fields, 'type') as EventType | null;
    const classification = stringField(fields, 'classification') as Classification | null;
    if (!type || !EVENT_TYPES.includes(type))
      return refused(400, `type must be one of ${EVENT_TYPES.join(', ')}`);
    if (classification !== null && !CLASSIFICATIONS.includes(classification)) {
      return refused(400, `classification must be one of ${CLASSIFICATIONS.join(', ')}`);
    }
    const campaignId = idField(fields, 'campaignId');
    const apiKey = stringField(fields, 'apiKey');
    // Smartlead shares a lead id between campaigns: the latest enrollment unless campaignId says which.
    for (const workspace of core.workspaces.values()) {
      if (apiKey !== null && workspace.apiKey !== apiKey) continue;
      const lead = workspace.leads.findLast(
        (candidate) =>
          candidate.leadId === leadId && (campaignId === null || candidate.campaignId === campaignId),
      );
      if (!lead) continue;
      try {
        const played = await core.play(workspace, lead, type, classification, stringField(fields, 'text'));
        return json(200, { delivered: played.delivered });
      } catch (error) {
        if (error instanceof PlayRefused) return refused(error.status, error.message);
        throw error;
      }
    }
    return refused(404, 'unknown lead');
  }

  return refused(404, `no control endpoint ${method} /_emulator${path}`);
}
