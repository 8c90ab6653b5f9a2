import { idOf, parseForm } from '#api/dashboard/forms.ts';
import { type Html, html } from '#api/dashboard/html.ts';
import type { FormFields } from '#api/dashboard/http.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { audit, changed, type DashboardPage, type PageRequest, pagePath } from '#api/dashboard/page.ts';
import { actionForm, secretOnce, table } from '#api/dashboard/widgets.ts';
import {
  deliveryEventLabel,
  eventLabel,
  formatCount,
  formatDateTime,
  statusLabel,
  subscriptionName,
} from '#api/dashboard/words.ts';
import { InputInvalid } from '#domain/errors.ts';
import { createWebhookEndpoint, updateWebhookEndpoint, WEBHOOK_EVENT_TYPES } from '#schemas/webhooks.ts';
import { createWebhook } from '#use-cases/create-webhook.ts';
import { deleteWebhook } from '#use-cases/delete-webhook.ts';
import { getWebhook } from '#use-cases/get-webhook.ts';
import { listWebhookDeliveries } from '#use-cases/list-webhook-deliveries.ts';
import { listWebhooks } from '#use-cases/list-webhooks.ts';
import { redeliverWebhookDelivery } from '#use-cases/redeliver-webhook-delivery.ts';
import { rotateWebhookSecret } from '#use-cases/rotate-webhook-secret.ts';
import { testWebhook } from '#use-cases/test-webhook.ts';
import { updateWebhook } from '#use-cases/update-webhook.ts';

/**
 * Webhook subscriptions: subscribe (the signing secret shown once), and per
 * subscription its events, a test event, the deliveries log with each one's
 * status, response code and latency, redelivery, a new secret, enabling and
 * disabling, and removal. The same operations as /public/v1/webhooks.
 */

const DELIVERIES_SHOWN = 25;

function eventBoxes(selected: readonly string[]): Html {
  return html`<fieldset><legend>Events</legend>${WEBHOOK_EVENT_TYPES.map(
    (type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${selected.includes(type) ? html` checked` : ''}> ${eventLabel(type)}</label>`,
  )}</fieldset>`;
}

async function subscriptionPage(request: PageRequest, id: number): Promise<Html> {
  const { orgId, base, frame, canChange } = request;
  const [webhook, deliveries] = await Promise.all([
    getWebhook({ orgId, path: { id } }),
    listWebhookDeliveries({ orgId, path: { id }, query: { take: DELIVERIES_SHOWN } }),
  ]);
  const here = `${base}${pagePath('webhooks', id)}`;
  const rows = deliveries.data.map(
    (delivery) =>
      html`<tr><td>${delivery.id}</td><td>${deliveryEventLabel(delivery.event_type)}</td><td class="status-${delivery.status === 'delivered' ? 'ok' : delivery.status === 'failed' ? 'failed' : 'other'}">${statusLabel(delivery.status)}</td><td class="number">${delivery.response_code ?? '—'}</td><td class="number">${delivery.latency_ms === null ? '—' : `${formatCount(delivery.latency_ms)} ms`}</td><td class="number">${formatCount(delivery.attempts)}</td><td>${formatDateTime(delivery.created_at)}</td>${
        canChange
          ? html`<td>${actionForm(
              frame,
              here,
              { action: 'redeliver', deliveryId: String(delivery.id) },
              'Redeliver',
              {
                accessibleName: `Redeliver delivery ${delivery.id}`,
              },
            )}</td>`
          : null
      }</tr>`,
  );
  const name = subscriptionName(webhook.url);
  const controls = canChange
    ? html`<div class="actions">${actionForm(frame, here, { action: 'test' }, 'Send a test event')}
${actionForm(frame, here, { action: webhook.enabled ? 'disable' : 'enable' }, webhook.enabled ? 'Disable' : 'Enable')}
${actionForm(frame, here, { action: 'rotate' }, 'Rotate the signing secret', { danger: 'Rotate the secret? Your receiver must use the new one.' })}
${actionForm(frame, here, { action: 'delete' }, 'Delete subscription', { danger: `Delete the subscription of ${name}?` })}</div>
<form method="post" action="${here}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="events">${eventBoxes(webhook.events)}<button type="submit">Save events</button></form>`
    : null;
  return html`<p><a href="${base}${pagePath('webhooks')}">All subscriptions</a></p>
<h2>${name}</h2><p><code>${webhook.url}</code></p>
<p>${webhook.enabled ? html`<span class="badge ok">Enabled</span>` : html`<span class="badge off">Disabled</span>${webhook.disabled_reason ? ` ${webhook.disabled_reason}` : ''}`} Events: ${webhook.events.map(eventLabel).join(', ')}</p>
${controls}<h2>Deliveries</h2>${table(`The latest ${DELIVERIES_SHOWN} deliveries, newest first`, ['Id', 'Event', 'Status', 'Response', 'Latency', 'Attempts', 'Created', ...(canChange ? ['Action'] : [])], rows, 'No deliveries yet.')}`;
}

async function listPage(request: PageRequest): Promise<Html> {
  const { orgId, base, frame, canChange } = request;
  const { webhooks } = await listWebhooks({ orgId });
  const rows = webhooks.map(
    (webhook) =>
      html`<tr><th scope="row"><a href="${base}${pagePath('webhooks', webhook.id)}">${subscriptionName(webhook.url)}</a></th><td><code>${webhook.url}</code></td><td>${webhook.events.map(eventLabel).join(', ')}</td><td>${webhook.enabled ? 'Enabled' : 'Disabled'}</td></tr>`,
  );
  const subscribe = canChange
    ? html`<h2>Subscribe</h2><form method="post" action="${base}${pagePath('webhooks')}">${csrfField(frame.csrfToken)}
<label for="webhook-url">HTTPS URL</label><input id="webhook-url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/hooks/outreach">
${eventBoxes(WEBHOOK_EVENT_TYPES)}<button class="primary" type="submit">Subscribe</button></form>`
    : null;
  return html`${table('Webhook subscriptions', ['Subscription', 'URL', 'Events', 'State'], rows, 'No subscriptions yet.')}${subscribe}`;
}

async function act(request: PageRequest & { form: FormFields }, id: number) {
  const { orgId, form } = request;
  const path = { id };
  const here = pagePath('webhooks', id);
  switch (form.get('action')) {
    case 'test': {
      const { delivery } = await testWebhook({ orgId, path });
      return changed(
        request,
        { action: 'webhook.test', target: `subscription ${id}, delivery ${delivery.id}` },
        here,
        'tested',
      );
    }
    case 'enable':
    case 'disable': {
      const enabled = form.get('action') === 'enable';
      await updateWebhook({ orgId, path, body: parseForm(updateWebhookEndpoint.body, { enabled }) });
      return changed(
        request,
        { action: enabled ? 'webhook.enable' : 'webhook.disable', target: `subscription ${id}` },
        here,
        enabled ? 'enabled' : 'disabled',
      );
    }
    case 'events': {
      const body = parseForm(updateWebhookEndpoint.body, { events: form.all('events') });
      await updateWebhook({ orgId, path, body });
      return changed(
        request,
        { action: 'webhook.events', target: `subscription ${id}: ${form.all('events').join(', ')}` },
        here,
        'events',
      );
    }
    case 'redeliver': {
      const deliveryId = idOf(form.get('deliveryId'), 'deliveryId');
      await redeliverWebhookDelivery({ orgId, path: { id, deliveryId } });
      return changed(
        request,
        { action: 'webhook.redeliver', target: `subscription ${id}, delivery ${deliveryId}` },
        here,
        'redelivered',
      );
    }
    case 'rotate': {
      const rotated = await rotateWebhookSecret({ orgId, path });
      await audit(request, { action: 'webhook.rotate-secret', target: `subscription ${id}` });
      return request.show(secretOnce('New signing secret:', 'new-secret', rotated.secret));
    }
    case 'delete':
      await deleteWebhook({ orgId, path });
      return changed(
        request,
        { action: 'webhook.delete', target: `subscription ${id}` },
        pagePath('webhooks'),
        'deleted',
      );
    default:
      throw new InputInvalid(
        'action must be one of test, enable, disable, events, redeliver, rotate, delete',
      );
  }
}

export const webhooksPage: DashboardPage = {
  title: 'Webhooks',
  hasItems: true,
  notices: {
    tested: 'A test event was queued: its delivery is in the log below.',
    enabled: 'The subscription is enabled.',
    disabled: 'The subscription is disabled.',
    events: 'The events were saved.',
    redelivered: 'The delivery was queued again.',
    deleted: 'The subscription was deleted.',
  },
  get(request) {
    return request.item === undefined
      ? listPage(request)
      : subscriptionPage(request, idOf(request.item, 'The webhook id'));
  },
  async post(request) {
    if (request.item !== undefined) return act(request, idOf(request.item, 'The webhook id'));
    const body = parseForm(createWebhookEndpoint.body, {
      url: request.form.get('url') ?? '',
      events: request.form.all('events'),
    });
    const created = await createWebhook({ orgId: request.orgId, body });
    await audit(request, {
      action: 'webhook.create',
      target: `subscription ${created.id} to ${created.url}`,
    });
    return request.show(
      secretOnce(
        `Subscribed ${subscriptionName(created.url)}. Signing secret:`,
        'new-secret',
        created.secret,
      ),
    );
  },
};
