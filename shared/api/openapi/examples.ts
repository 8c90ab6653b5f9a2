import type { TEST_EVENT_TYPE, WebhookEventType, WebhookPayload } from '#schemas/webhooks.ts';
import type { Json } from './operations.ts';

/**
 * The document's example values. Without them a renderer makes its own from a schema's bounds: the
 * reference page's "Try it out" showed `-9007199254740991` for every id and count, the minimum
 * `z.int()` carries (JSON Schema's safe-integer bounds). So every field the service's resources
 * share gets a plausible value by its name, integers of the API's own schemas get the lower bound
 * they really have (ids from 1, counts from 0), and each webhook event has a whole payload.
 * test/unit/openapi-examples.test.ts validates every example against the schema it is an example of.
 */

const AT = '2026-03-02T09:14:07.512Z';
const EARLIER = '2026-02-11T08:30:00.000Z';

/**
 * Examples by field name, for every schema of the service (not the MCP SDK's JSON-RPC ones); a name
 * followed by `+format` applies only to a field of that format. Names that mean different things in
 * different resources (`name`, `status`, `message`) are left to the schema; `Component.field` is
 * that component's field alone.
 */
const FIELD_EXAMPLES: Record<string, unknown> = {
  id: 101,
  'id:string': 'greenhouse-4471093',
  account_id: 2417,
  assignment_id: 58213,
  assignmentIds: 58213,
  campaign_id: 101,
  icp_id: 101,
  connection_id: 7,
  sequence_id: 311,
  sequenceId: 311,
  sequence_ids: 311,
  webhook_id: 12,
  deliveryId: 903,
  sequenceIds: 311,
  api_key: 'sl_5f2c9a7e41b8d06e',
  at: AT,
  attempts: 1,
  base_url: 'https://server.smartlead.ai/api/v1',
  body: 'Hi Ada, thanks for getting back to me. Would Thursday at 10:00 work for a short call?',
  to: 'ada@acme.com',
  cc: 'grace@acme.com',
  bcc: 'sales-log@example.com',
  blocked: 2,
  bounced: 3,
  clicked: 41,
  completed: 87,
  cooldown_other_sequences: 1,
  cooldown_same_sequence: 0,
  created: 2,
  created_at: EARLIER,
  updated_at: AT,
  first_seen_at: EARLIER,
  last_seen_at: AT,
  received_at: AT,
  timestamp: AT,
  domain: 'acme.com',
  company_domain: 'acme.com',
  companyDomain: 'acme.com',
  company_url: 'acme.com',
  website: 'https://acme.com',
  company_name: 'Acme Corp',
  companyName: 'Acme Corp',
  company_linkedin_url: 'https://www.linkedin.com/company/acme',
  'linkedin-url': 'https://www.linkedin.com/company/acme',
  linkedin_url: 'https://www.linkedin.com/in/ada-lovelace',
  linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace',
  email: 'ada@acme.com',
  emails: 'ada@acme.com',
  sender_email: 'jordan@outreach-example.com',
  first_name: 'Ada',
  firstName: 'Ada',
  last_name: 'Lovelace',
  lastName: 'Lovelace',
  full_name: 'Ada Lovelace',
  title: 'VP of Sales',
  icp_name: 'EMEA SaaS, 50–500 employees',
  location: 'Berlin, Germany',
  contextual: 'Hiring 4 account executives in Berlin',
  eligible: 3,
  event_id: 'msg_2fQ8mZk1x7LcV3nR',
  globally_excluded: 0,
  in_progress: 12,
  index: 0,
  ineligible: 1,
  latency_ms: 184,
  next: 4822,
  open_count: 2,
  opened: 164,
  pending_approval: 5,
  provider_campaign_id: '1843392',
  replied: 18,
  request_id: 'c0a8f1e2-5b7d-4e19-9a3c-2f6d8e1b4a70',
  response_code: 200,
  scheduled: 40,
  secret: 'whsec_MfKQ9r8GKYqBPi4ULn4mWqTpZmYVxs4K',
  sent: 412,
  skip: 0,
  skipped: 1,
  step_index: 0,
  steps_count: 3,
  subject: 'Scaling the EMEA sales team at Acme',
  take: 25,
  total: 240,
  total_bounced: 41,
  total_campaigns: 6,
  total_contacts_opened: 1210,
  total_contacts_replied: 96,
  total_contacts_scheduled: 310,
  total_contacts_sent: 2480,
  total_unsubscribed: 12,
  unapproved: 0,
  unsubscribed: 4,
  updated: 1,
  url: 'https://hooks.example.com/outreach',
  'Job.url': 'https://acme.com/careers/account-executive-berlin',
  variant_index: 0,
  webhook_url: 'https://api.example.com/provider-webhooks/42/7/q2VxRk8LmN4pT1sZ',
};

/**
 * Whole examples of the MCP SDK's JSON-RPC schemas, whose fields are the SDK's (an id or an error code
 * may be negative, so their bounds stay): what `POST /mcp` takes and answers, not the bounds' extremes.
 */
export const COMPONENT_EXAMPLES: Record<string, Json> = {
  JsonRpcMessage: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  JsonRpcResponse: {
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'Acme Corp (acme.com): score 0.9, hiring' }] },
  },
  JsonRpcTransportError: {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
  },
};

/** Fields named like an id: integers from 1. */
const ID_FIELD = /(^id|Id|_id|Ids|_ids)$/;

const MIN_SAFE = Number.MIN_SAFE_INTEGER;

/** The JSON types a schema node allows, through `anyOf` (a nullable field) and type arrays. */
function typesOf(node: Json): string[] {
  if (Array.isArray(node.anyOf)) return (node.anyOf as Json[]).flatMap(typesOf);
  return [node.type].flat().filter((type): type is string => typeof type === 'string');
}

/** The example of a field by its name, for the node's type and format; undefined when none fits. */
function exampleFor(name: string, node: Json, component?: string): unknown {
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as Json[]) : [node];
  const format = branches.find((branch) => typeof branch.format === 'string')?.format;
  const types = typesOf(node);
  const candidates = [
    component === undefined ? undefined : `${component}.${name}`,
    format === undefined ? undefined : `${name}+${format}`,
    ...types.map((type) => `${name}:${type}`),
    name,
  ];
  for (const key of candidates) {
    if (key === undefined || !(key in FIELD_EXAMPLES)) continue;
    const value = FIELD_EXAMPLES[key];
    const type = Number.isInteger(value) ? 'integer' : typeof value;
    if (types.includes(type) || (type === 'integer' && types.includes('number'))) return value;
  }
  return undefined;
}

/** An integer of the service's own schemas: its real lower bound in place of `z.int()`'s safe one. */
function boundInteger(name: string, node: Json): void {
  for (const branch of Array.isArray(node.anyOf) ? (node.anyOf as Json[]) : [node]) {
    if (branch.type === 'integer' && branch.minimum === MIN_SAFE)
      branch.minimum = ID_FIELD.test(name) ? 1 : 0;
  }
}

/**
 * Gives a schema's fields, and their fields in turn, their examples and integer bounds (in place).
 * `component` is the schema's component name, `name` the field's; an array's items are named as the array.
 */
export function exemplify(node: Json, component: string, name?: string): void {
  if (typeof node.$ref === 'string') return;
  if (name !== undefined) {
    boundInteger(name, node);
    if (node.examples === undefined && node.enum === undefined && node.const === undefined) {
      const example = exampleFor(name, node, component);
      if (example !== undefined) node.examples = [example];
    }
  }
  for (const [field, child] of Object.entries((node.properties as Record<string, Json>) ?? {}))
    exemplify(child, component, field);
  if (node.items && typeof node.items === 'object') exemplify(node.items as Json, component, name);
  for (const branch of (node.anyOf as Json[] | undefined) ?? []) {
    if (branch.properties || branch.items) exemplify(branch, component, name);
  }
}

/** A path or query parameter's example, by its name (the schema's own, from zod metadata, wins). */
export function exemplifyParameter(name: string, schema: Json): void {
  if (schema.examples !== undefined || schema.enum !== undefined) return;
  const example = exampleFor(name, schema);
  if (example !== undefined) schema.examples = [example];
}

const contact = {
  id: 8812,
  email: 'ada@acme.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  title: 'VP of Sales',
  linkedin_url: 'https://www.linkedin.com/in/ada-lovelace',
  company_name: 'Acme Corp',
  company_domain: 'acme.com',
};

const assignment = { campaign_id: 101, sequence_id: 311, assignment_id: 58213, contact };

/** A whole payload of each event, as a subscriber receives it. */
export const WEBHOOK_EXAMPLES: Record<WebhookEventType | typeof TEST_EVENT_TYPE, WebhookPayload> = {
  new_opportunities: {
    type: 'new_opportunities',
    timestamp: AT,
    data: {
      campaign_id: 101,
      accounts: [
        {
          id: 2417,
          name: 'Acme Corp',
          domain: 'acme.com',
          website: 'https://acme.com',
          'linkedin-url': 'https://www.linkedin.com/company/acme',
          score: 0.9,
          signals: [
            {
              name: 'hiring',
              updated: '2026-02-28T00:00:00.000Z',
              freshness: 'fresh',
              score: 0.8,
              contextual: 'Hiring 4 account executives in Berlin',
            },
          ],
        },
      ],
    },
  },
  first_touch: {
    type: 'first_touch',
    timestamp: AT,
    data: {
      ...assignment,
      message: {
        id: 99120,
        assignment_id: 58213,
        type: 'sent',
        step_type: 'email',
        step_index: 0,
        variant_index: 0,
        response_type: null,
        subject: 'Scaling the EMEA sales team at Acme',
        body: 'Hi Ada, I saw Acme is hiring four account executives in Berlin…',
        open_count: 0,
        sender_email: 'jordan@outreach-example.com',
        created_at: AT,
      },
    },
  },
  positive_reply: {
    type: 'positive_reply',
    timestamp: AT,
    data: {
      ...assignment,
      message: {
        id: 99187,
        assignment_id: 58213,
        type: 'received',
        step_type: 'reply',
        step_index: 0,
        variant_index: null,
        response_type: 'positive',
        subject: 'Re: Scaling the EMEA sales team at Acme',
        body: 'Hi Jordan, good timing. Can we talk on Thursday?',
        open_count: 0,
        sender_email: 'ada@acme.com',
        created_at: AT,
      },
    },
  },
  test: {
    type: 'test',
    timestamp: AT,
    data: {
      webhook_id: 12,
      message:
        'A test event from the Outreach Campaign Public API; the signature verifies with your webhook secret.',
    },
  },
};
