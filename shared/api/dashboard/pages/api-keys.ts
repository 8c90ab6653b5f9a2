import { idOf } from '#api/dashboard/forms.ts';
import { html } from '#api/dashboard/html.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { audit, changed, type DashboardPage, pagePath } from '#api/dashboard/page.ts';
import { actionForm, secretOnce, table } from '#api/dashboard/widgets.ts';
import { formatWhen, scopeLabel } from '#api/dashboard/words.ts';
import { createApiKey } from '#use-cases/create-api-key.ts';
import { listApiKeys } from '#use-cases/list-api-keys.ts';
import { revokeApiKey } from '#use-cases/revoke-api-key.ts';

/** The organization's API keys: create one (shown once), list them with their last use, revoke one. */

export const apiKeysPage: DashboardPage = {
  title: 'API keys',
  notices: {
    revoked: 'The key was revoked. It stops working within five minutes (the gateway caches keys).',
  },
  async get({ orgId, base, frame, canChange }) {
    const keys = await listApiKeys({ orgId });
    const rows = keys.map(
      (key) =>
        html`<tr><td>${key.keyId}</td><td>${key.name ?? '—'}</td><td>${scopeLabel(key.scope)}</td><td>${formatWhen(key.createdAt)}</td><td>${formatWhen(key.lastUsedAt)}</td><td>${formatWhen(key.expiresAt)}</td><td>${
          key.revokedAt
            ? `Revoked ${formatWhen(key.revokedAt)}`
            : canChange
              ? actionForm(
                  frame,
                  `${base}${pagePath('api-keys')}`,
                  { action: 'revoke', keyId: String(key.keyId) },
                  'Revoke',
                  {
                    danger: `Revoke key ${key.keyId}? Clients using it stop working.`,
                    accessibleName: `Revoke key ${key.keyId}${key.name ? ` (${key.name})` : ''}`,
                  },
                )
              : 'Active'
        }</td></tr>`,
    );
    const create = canChange
      ? html`<h2>Create a key</h2><form method="post" action="${base}${pagePath('api-keys')}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="create">
<label for="key-name">Name</label><input id="key-name" name="name" type="text" maxlength="100" placeholder="CI pipeline">
<label for="key-scope">Scope</label><select id="key-scope" name="scope"><option value="read-write">${scopeLabel('read-write')}: every route</option><option value="read">${scopeLabel('read')}: no route that writes</option></select>
<label for="key-expiry">Expires in days (empty: never)</label><input id="key-expiry" name="expiresInDays" type="number" min="1" max="3650">
<p><button class="primary" type="submit">Create key</button></p></form>`
      : null;
    return html`<p>Send a key in the <code>x-api-key</code> header. A read-only key is refused (403) every route that writes.</p>
${table('API keys of the organization', ['Id', 'Name', 'Scope', 'Created', 'Last used', 'Expires', 'State'], rows, 'No keys yet.')}${create}`;
  },
  async post(request) {
    const { form, orgId } = request;
    if (form.get('action') === 'revoke') {
      const keyId = idOf(form.get('keyId'), 'keyId');
      await revokeApiKey({ orgId, keyId });
      return changed(
        request,
        { action: 'api-key.revoke', target: `key ${keyId}` },
        pagePath('api-keys'),
        'revoked',
      );
    }
    // The options are checked by the domain's own schema (ApiKeyOptionInvalid names the field).
    const days = form.get('expiresInDays');
    const input = {
      name: form.get('name'),
      scope: form.get('scope') === 'read' ? ('read' as const) : ('read-write' as const),
      expiresInDays: days === undefined ? undefined : Number(days),
    };
    const created = await createApiKey({ orgId, ...input });
    await audit(request, {
      action: 'api-key.create',
      target: `key ${created.keyId}${input.name ? ` "${input.name}"` : ''} (${input.scope})`,
    });
    return request.show(secretOnce(`Key ${created.keyId} created:`, 'new-secret', created.apiKey));
  },
};
