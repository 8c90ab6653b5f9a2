import { idOf, parseForm } from '#api/dashboard/forms.ts';
import { type Html, html } from '#api/dashboard/html.ts';
import type { FormFields } from '#api/dashboard/http.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { changed, type DashboardPage, type PageRequest, pagePath } from '#api/dashboard/page.ts';
import { actionForm, table } from '#api/dashboard/widgets.ts';
import { formatDateTime, providerLabel } from '#api/dashboard/words.ts';
import { InputInvalid } from '#domain/errors.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { PROVIDERS, type Provider } from '#schemas/import.ts';
import {
  createProviderConnectionEndpoint,
  type ProviderConnection,
  updateProviderConnectionEndpoint,
} from '#schemas/provider-connections.ts';
import { checkProviderConnection } from '#use-cases/check-provider-connection.ts';
import { createProviderConnection } from '#use-cases/create-provider-connection.ts';
import { deleteProviderConnection } from '#use-cases/delete-provider-connection.ts';
import { getProviderConnection } from '#use-cases/get-provider-connection.ts';
import { listEnrollmentFailures } from '#use-cases/list-enrollment-failures.ts';
import { listProviderConnections } from '#use-cases/list-provider-connections.ts';
import { listProviderUnmatched } from '#use-cases/list-provider-unmatched.ts';
import { rotateProviderWebhookUrl } from '#use-cases/rotate-provider-webhook-url.ts';
import { updateProviderConnection } from '#use-cases/update-provider-connection.ts';
import { LINK_NOTICES, linkAction, linkSection } from './provider-links.ts';

/**
 * Provider connections (docs/providers.md): connect with the provider's API
 * key (sealed at rest, never shown again), the webhook URL to paste into the
 * provider, the events that matched nothing, and the enrollments the
 * providers refused.
 */

const SHOWN = 25;

/**
 * Who asks, as the use cases take it: an admin is shown a connection's webhook URL, a viewer is not
 * (its token posts provider events for the organization: a write credential; docs/decisions.md).
 */
const callerOf = ({ base, canChange }: PageRequest) =>
  ({ baseUrl: () => base, scope: canChange ? 'read-write' : 'read' }) as const;

const shortTime = formatDateTime;

/** "Smartlead connection 6": how a page names a connection. */
const connectionName = (connection: Pick<ProviderConnection, 'provider' | 'id'>) =>
  `${providerLabel(connection.provider)} connection ${connection.id}`;

/** The connection's health as a badge: failing says why and since when (docs/providers.md, Connection health). */
const healthBadge = (connection: ProviderConnection): Html =>
  connection.status === 'ok'
    ? html`<span class="badge ok">ok</span>`
    : html`<span class="badge failing">failing</span> ${connection.last_error?.message ?? ''} <span class="muted">(${connection.last_error ? shortTime(connection.last_error.at) : ''})</span>`;

async function connectionPage(request: PageRequest, id: number): Promise<Html> {
  const { orgId, base, frame, canChange } = request;
  const [connection, unmatched] = await Promise.all([
    getProviderConnection({ orgId, path: { id }, ...callerOf(request) }),
    listProviderUnmatched({ orgId, path: { id }, query: { take: SHOWN } }),
  ]);
  const links = await linkSection(request, connection);
  const here = `${base}${pagePath('providers', id)}`;
  const rows = unmatched.data.map(
    (event) =>
      html`<tr><td>${formatDateTime(event.received_at)}</td><td>${event.event_type ?? '—'}</td><td>${event.lead_email ?? '—'}</td><td>${event.campaign_external_id ?? '—'}</td><td>${event.reason}</td></tr>`,
  );
  const provider = providerLabel(connection.provider);
  const controls = canChange
    ? html`<div class="actions">${actionForm(frame, here, { action: 'check' }, 'Check now')}
${actionForm(frame, here, { action: 'rotate' }, 'Rotate the webhook URL', { danger: 'Rotate the URL? The old one stops working: paste the new one into the provider.' })}
${actionForm(frame, here, { action: 'delete' }, 'Disconnect', { danger: `Disconnect this ${provider} connection?` })}</div>
<h2>Replace the API key</h2><form method="post" action="${here}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="rotate-key">
<label for="new-provider-key">The new API key from ${provider}</label><input id="new-provider-key" name="api_key" type="password" autocomplete="off" required maxlength="512">
<p class="muted">${provider} is asked whether it accepts the new key first; the old one stays if it does not.</p>
<p><button type="submit">Replace the key</button></p></form>`
    : null;
  return html`<p><a href="${base}${pagePath('providers')}">All connections</a></p>
<h2>${connectionName(connection)}</h2>
<p id="connection-health">Health: ${healthBadge(connection)}${connection.last_success_at ? html` · last success ${shortTime(connection.last_success_at)}` : ''}</p>
<p>API base URL: <code>${connection.base_url ?? PROVIDER_FACTS[connection.provider].defaultBaseUrl}</code>${connection.base_url === null ? html` <span class="muted">(${provider}’s public API)</span>` : ''}</p>
${
  connection.webhook_url === undefined
    ? html`<p>Its webhook URL is shown to admins only: whoever holds it can post events as ${provider}.</p>`
    : html`<p>Paste this URL into ${provider}’s webhook settings:</p><div class="secret"><code id="webhook-url">${connection.webhook_url}</code><button type="button" data-copy="webhook-url" hidden>Copy</button></div>`
}
${controls}${links}<h2>Unmatched events</h2>${table(`Events of the last 14 days that matched nothing (up to ${SHOWN})`, ['Received', 'Event', 'Lead', 'Provider campaign', 'Why'], rows, 'No unmatched events.')}`;
}

async function listPage(request: PageRequest): Promise<Html> {
  const { orgId, base, frame, canChange } = request;
  const [{ connections }, failures] = await Promise.all([
    listProviderConnections({ orgId, ...callerOf(request) }),
    listEnrollmentFailures({ orgId, take: SHOWN }),
  ]);
  const rows = connections.map(
    (connection) =>
      html`<tr><th scope="row"><a href="${base}${pagePath('providers', connection.id)}">${connectionName(connection)}</a></th><td>${formatDateTime(connection.created_at)}</td><td>${healthBadge(connection)}</td></tr>`,
  );
  const failureRows = failures.data.map(
    (failure) =>
      html`<tr><td>${formatDateTime(failure.failed_at)}</td><td>${PROVIDERS.find((provider) => provider === failure.provider) ? providerLabel(failure.provider as Provider) : failure.provider}</td><td>${failure.assignment_id}</td><td>${failure.external_id}</td><td>${failure.error}</td></tr>`,
  );
  const connect = canChange
    ? html`<h2>Connect a provider</h2><form method="post" action="${base}${pagePath('providers')}">${csrfField(frame.csrfToken)}
<label for="provider">Provider</label><select id="provider" name="provider">${PROVIDERS.map((provider) => html`<option value="${provider}">${providerLabel(provider)}</option>`)}</select>
<label for="provider-key">The provider’s API key</label><input id="provider-key" name="api_key" type="password" autocomplete="off" required maxlength="512">
<label for="provider-base">API base URL (empty: the provider’s public API)</label><input id="provider-base" name="base_url" type="url">
<p><button class="primary" type="submit">Connect</button></p></form>`
    : null;
  return html`${table('Provider connections', ['Connection', 'Connected', 'Health'], rows, 'No providers connected.')}${connect}
<h2>Enrollment failures</h2>${table(`Leads a provider refused in the last 30 days (up to ${SHOWN})`, ['When', 'Provider', 'Assignment', 'Provider campaign', 'Error'], failureRows, 'No enrollment failures.')}`;
}

async function act(request: PageRequest & { form: FormFields }, id: number) {
  const { orgId, form, base } = request;
  const linked = await linkAction(request, id);
  if (linked) return linked;
  switch (form.get('action')) {
    case 'check': {
      const checked = await checkProviderConnection({ orgId, path: { id }, baseUrl: () => base });
      return changed(
        request,
        { action: 'provider.check', target: `connection ${id}` },
        pagePath('providers', id),
        checked.status === 'ok' ? 'checked' : 'check-failed',
      );
    }
    case 'rotate-key': {
      // The API's PATCH: the provider is asked whether it accepts the key before it replaces the old one.
      const body = parseForm(updateProviderConnectionEndpoint.body, { api_key: form.get('api_key') ?? '' });
      await updateProviderConnection({ orgId, path: { id }, body, baseUrl: () => base });
      return changed(
        request,
        { action: 'provider.rotate-key', target: `connection ${id}` },
        pagePath('providers', id),
        'key-rotated',
      );
    }
    case 'rotate':
      await rotateProviderWebhookUrl({ orgId, path: { id }, baseUrl: () => base });
      return changed(
        request,
        { action: 'provider.rotate-webhook-url', target: `connection ${id}` },
        pagePath('providers', id),
        'rotated',
      );
    case 'delete':
      await deleteProviderConnection({ orgId, path: { id } });
      return changed(
        request,
        { action: 'provider.disconnect', target: `connection ${id}` },
        pagePath('providers'),
        'disconnected',
      );
    default:
      throw new InputInvalid('action must be check, rotate, rotate-key or delete');
  }
}

export const providersPage: DashboardPage = {
  title: 'Providers',
  hasItems: true,
  notices: {
    connected: 'The provider is connected. Paste its webhook URL into the provider.',
    rotated: 'The webhook URL was rotated: paste the new one into the provider.',
    'key-rotated': 'The provider accepted the new API key, which replaces the old one.',
    checked: 'The provider accepted the connection’s API key.',
    'check-failed':
      'Checked: the provider refused the connection’s API key (its status below). Give it a new one.',
    disconnected: 'The connection was removed.',
    ...LINK_NOTICES,
  },
  get(request) {
    return request.item === undefined
      ? listPage(request)
      : connectionPage(request, idOf(request.item, 'The connection id'));
  },
  async post(request) {
    if (request.item !== undefined) return act(request, idOf(request.item, 'The connection id'));
    const { form, orgId, base } = request;
    const body = parseForm(createProviderConnectionEndpoint.body, {
      provider: form.get('provider'),
      api_key: form.get('api_key') ?? '',
      base_url: form.get('base_url') ?? null,
    });
    const connection = await createProviderConnection({ orgId, body, baseUrl: () => base });
    return changed(
      request,
      { action: 'provider.connect', target: `${connection.provider} connection ${connection.id}` },
      pagePath('providers', connection.id),
      'connected',
    );
  },
};
