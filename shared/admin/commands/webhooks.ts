import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  type Flags,
  optionalString,
  requiredId,
  requiredString,
  UsageError,
  validatedFlags,
} from '#admin/flags.ts';
import { listText, plural, table } from '#admin/format.ts';
import {
  createWebhookEndpoint,
  listWebhookDeliveriesEndpoint,
  updateWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookSubscription,
} from '#schemas/webhooks.ts';
import { createWebhookForOrganization } from '#use-cases/create-webhook.ts';
import { deleteWebhook } from '#use-cases/delete-webhook.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { getWebhook } from '#use-cases/get-webhook.ts';
import { listWebhookDeliveries } from '#use-cases/list-webhook-deliveries.ts';
import { listWebhooks } from '#use-cases/list-webhooks.ts';
import { redeliverWebhookDelivery } from '#use-cases/redeliver-webhook-delivery.ts';
import { redriveWebhooks } from '#use-cases/redrive-webhooks.ts';
import { rotateWebhookSecret } from '#use-cases/rotate-webhook-secret.ts';
import { testWebhook } from '#use-cases/test-webhook.ts';
import { updateWebhook } from '#use-cases/update-webhook.ts';

/**
 * `webhook …`: the `/webhooks` endpoints' operations, for operators, through
 * the same use cases and the same request schemas, plus the dead-letter redrive.
 */

/** `--events a,b`: names of event types (the request schema puts them in order, once each). */
function webhookEvents(flags: Flags): string[] {
  const names = requiredString(flags, 'events')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--events takes a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return names;
}

const WEBHOOK_COLUMNS = ['ID', 'STATE', 'EVENTS', 'URL'];
function webhookRow(webhook: WebhookSubscription): string[] {
  const state = webhook.enabled
    ? 'enabled'
    : `disabled${webhook.disabled_reason ? ` (${webhook.disabled_reason})` : ''}`;
  return [String(webhook.id), state, webhook.events.join(','), webhook.url];
}
/** A subscription in a sentence's line (`Created webhook …`): its row's cells. */
const describeWebhook = (webhook: WebhookSubscription) => webhookRow(webhook).join('\t');

const DELIVERY_COLUMNS = ['ID', 'STATUS', 'EVENT', 'ATTEMPTS', 'OUTCOME', 'LATENCY (MS)', 'WEBHOOK-ID'];
const deliveryRow = (delivery: WebhookDelivery) => [
  delivery.id,
  delivery.status,
  delivery.event_type,
  delivery.attempts,
  delivery.response_code ?? delivery.error,
  delivery.latency_ms,
  delivery.event_id,
];

const webhookFlags = { org: { type: 'string' }, webhook: { type: 'string' } } as const;

/** `--org` and `--webhook`: whose subscription, of an organization that exists (OrganizationNotFound). */
async function subscription(flags: Flags): Promise<{ orgId: number; path: { id: number } }> {
  const orgId = requiredId(flags, 'org');
  const path = { id: requiredId(flags, 'webhook') };
  await getOrganization({ orgId });
  return { orgId, path };
}

export const webhookCommands: Record<string, Command> = {
  'webhook create': {
    usage: 'webhook create --org ID --url URL --events new_opportunities,first_touch,positive_reply',
    summary: 'Subscribe a URL to webhook events.',
    flags: { org: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const body = validatedFlags(createWebhookEndpoint.body, {
        url: requiredString(flags, 'url'),
        events: webhookEvents(flags),
      });
      const created = await createWebhookForOrganization({ orgId, body });
      return {
        json: created,
        text: `Created webhook ${describeWebhook(created)}\nSigning secret (shown once): ${created.secret}`,
      };
    },
  },
  'webhook list': {
    usage: 'webhook list --org ID',
    summary: 'List an organization’s webhook subscriptions.',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      await getOrganization({ orgId });
      const { webhooks } = await listWebhooks({ orgId });
      return { json: { webhooks }, text: listText(WEBHOOK_COLUMNS, webhooks.map(webhookRow), 'No webhooks') };
    },
  },
  'webhook get': {
    usage: 'webhook get --org ID --webhook ID',
    summary: 'Show one webhook subscription.',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const webhook = await getWebhook(await subscription(flags));
      return { json: webhook, text: table(WEBHOOK_COLUMNS, [webhookRow(webhook)]) };
    },
  },
  'webhook update': {
    usage: 'webhook update --org ID --webhook ID [--url URL] [--events a,b] [--enable | --disable]',
    summary: 'Change a subscription’s URL or events, or enable or disable it.',
    flags: {
      ...webhookFlags,
      url: { type: 'string' },
      events: { type: 'string' },
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      if (flags.enable && flags.disable) throw new UsageError('Give --enable or --disable, not both');
      const changes = {
        url: optionalString(flags, 'url'),
        events: flags.events === undefined ? undefined : webhookEvents(flags),
        enabled: flags.enable ? true : flags.disable ? false : undefined,
      };
      if (Object.values(changes).every((value) => value === undefined)) {
        throw new UsageError('Nothing to update: give --url, --events, --enable or --disable');
      }
      const body = validatedFlags(updateWebhookEndpoint.body, changes);
      const webhook = await updateWebhook({ ...(await subscription(flags)), body });
      return { json: webhook, text: `Updated webhook ${describeWebhook(webhook)}` };
    },
  },
  'webhook delete': {
    usage: 'webhook delete --org ID --webhook ID',
    summary: 'Delete a webhook subscription.',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const target = await subscription(flags);
      await deleteWebhook(target);
      const webhookId = target.path.id;
      return {
        json: { orgId: target.orgId, webhookId, deleted: true },
        text: `Deleted webhook ${webhookId}`,
      };
    },
  },
  'webhook test': {
    usage: 'webhook test --org ID --webhook ID',
    summary: 'Send a test event to a subscription.',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const { delivery } = await testWebhook(await subscription(flags));
      return {
        json: delivery,
        text: `Queued test event ${delivery.event_id} as delivery ${delivery.id}; see \`webhook deliveries\``,
      };
    },
  },
  'webhook rotate-secret': {
    usage: 'webhook rotate-secret --org ID --webhook ID',
    summary: 'Replace a subscription’s signing secret.',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const rotated = await rotateWebhookSecret(await subscription(flags));
      return {
        json: rotated,
        text: `New signing secret (shown once; the previous one also signs for 24 hours): ${rotated.secret}`,
      };
    },
  },
  'webhook deliveries': {
    usage: 'webhook deliveries --org ID --webhook ID [--take N] [--cursor DELIVERY_ID]',
    summary: 'List a subscription’s recent deliveries.',
    flags: { ...webhookFlags, take: { type: 'string' }, cursor: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      // The endpoint's query schema: its default and bounds of take, and what a cursor is.
      const query = validatedFlags(listWebhookDeliveriesEndpoint.query, {
        take: flags.take,
        cursor: flags.cursor,
      });
      const page = await listWebhookDeliveries({ ...(await subscription(flags)), query });
      const more = page.next === null ? undefined : `More: --cursor ${page.next}`;
      return {
        json: page,
        text: listText(DELIVERY_COLUMNS, page.data.map(deliveryRow), 'No deliveries', more),
      };
    },
  },
  'webhook redeliver': {
    usage: 'webhook redeliver --org ID --webhook ID --delivery DELIVERY_ID',
    summary: 'Send one delivery again.',
    flags: { ...webhookFlags, delivery: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const deliveryId = requiredId(flags, 'delivery');
      const { orgId, path } = await subscription(flags);
      const { delivery } = await redeliverWebhookDelivery({ orgId, path: { ...path, deliveryId } });
      return {
        json: delivery,
        text: `Queued delivery ${delivery.id} again (webhook-id ${delivery.event_id})`,
      };
    },
  },
  'webhook redrive': {
    usage: 'webhook redrive',
    summary: 'Move dead-lettered deliveries back to the webhooks queue.',
    flags: {},
    async run(_flags, positionals) {
      expectPositionals(positionals, []);
      const { moved } = await redriveWebhooks();
      return {
        json: { moved },
        text: `Moved ${plural(moved, 'dead letter')} back to the webhooks queue`,
      };
    },
  },
};
