import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { parseForm } from '#api/dashboard/forms.ts';
import { html } from '#api/dashboard/html.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { audit, changed, type DashboardPage, pagePath } from '#api/dashboard/page.ts';
import { actionForm, secretOnce, table } from '#api/dashboard/widgets.ts';
import { clientKindLabel, formatWhen } from '#api/dashboard/words.ts';
import { InputInvalid } from '#domain/errors.ts';
import { createOAuthClient } from '#use-cases/create-oauth-client.ts';
import { listAssistantGrants } from '#use-cases/list-assistant-grants.ts';
import { listOAuthClients } from '#use-cases/list-oauth-clients.ts';
import { revokeAssistantGrant } from '#use-cases/revoke-assistant-grant.ts';
import { revokeOAuthClient } from '#use-cases/revoke-oauth-client.ts';

/**
 * The MCP connector: its URL (all an assistant that registers itself needs),
 * the assistants connected to the organization (revocable), and OAuth clients
 * made here for assistants that need a client id and secret.
 */

const newClientForm = z.object({
  name: z
    .string()
    .check(z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters')),
  redirectUri: z
    .string()
    .check(z.minLength(1, 'must not be empty'), z.maxLength(2048, 'must be at most 2048 characters')),
});

export const assistantPage: DashboardPage = {
  title: 'AI assistant',
  notices: {
    'client-revoked': 'The client was revoked: its tokens stopped working.',
    'assistant-revoked': 'The assistant was disconnected: its tokens stopped working.',
  },
  async get({ orgId, base, frame, canChange }) {
    const [clients, grants] = await Promise.all([
      listOAuthClients({ orgId }),
      listAssistantGrants({ orgId }),
    ]);
    const grantRows = grants.map(
      (grant) =>
        html`<tr><td>${grant.clientName}</td><td><code>${grant.clientId}</code></td><td>${clientKindLabel(grant.kind)}</td><td>${grant.approvedBy ?? 'The operator'}</td><td>${formatWhen(grant.approvedAt)}</td><td>${
          grant.revokedAt
            ? `Disconnected ${formatWhen(grant.revokedAt)}`
            : canChange
              ? actionForm(
                  frame,
                  `${base}${pagePath('assistant')}`,
                  { action: 'revoke-assistant', clientId: grant.clientId },
                  'Disconnect',
                  {
                    danger: `Disconnect ${grant.clientName}? Its tokens stop working at once.`,
                    accessibleName: `Disconnect ${grant.clientName}`,
                  },
                )
              : 'Connected'
        }</td></tr>`,
    );
    const clientRows = clients.map(
      (client) =>
        html`<tr><td><code>${client.clientId}</code></td><td>${client.name}</td><td>${client.redirectUris.map((uri) => html`<code>${uri}</code> `)}</td><td>${formatWhen(client.createdAt)}</td><td>${
          client.revokedAt
            ? `Revoked ${formatWhen(client.revokedAt)}`
            : canChange
              ? actionForm(
                  frame,
                  `${base}${pagePath('assistant')}`,
                  { action: 'revoke-client', clientId: client.clientId },
                  'Revoke',
                  {
                    danger: `Revoke ${client.name}? Its tokens stop working at once.`,
                    accessibleName: `Revoke client ${client.name}`,
                  },
                )
              : 'Active'
        }</td></tr>`,
    );
    const create = canChange
      ? html`<h2>Create an OAuth client</h2><form method="post" action="${base}${pagePath('assistant')}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="create-client">
<label for="client-name">Name</label><input id="client-name" name="name" type="text" required maxlength="100" placeholder="Team assistant">
<label for="client-redirect">Redirect URL</label><input id="client-redirect" name="redirectUri" type="url" required maxlength="2048" placeholder="https://assistant.example.com/oauth/callback">
<p><button class="primary" type="submit">Create client</button></p></form>`
      : null;
    return html`<h2>Connect an assistant</h2><p>Paste this URL into your assistant’s MCP connector settings. It registers itself, and a member who is an admin approves it for this organization.</p>
<div class="secret"><code id="mcp-url">${base}/mcp</code><button type="button" data-copy="mcp-url" hidden>Copy</button></div>
<h2>Connected assistants</h2>${table('Assistants approved for the organization', ['Name', 'Client id', 'Registration', 'Approved by', 'Approved', 'State'], grantRows, 'No assistant is connected.')}
<h2>OAuth clients</h2>${table('OAuth clients of the organization', ['Client id', 'Name', 'Redirect URLs', 'Created', 'State'], clientRows, 'No OAuth clients.')}${create}`;
  },
  async post(request) {
    const { form, orgId } = request;
    switch (form.get('action')) {
      case 'create-client': {
        const input = parseForm(newClientForm, {
          name: form.get('name') ?? '',
          redirectUri: form.get('redirectUri') ?? '',
        });
        const created = await createOAuthClient({
          orgId,
          name: input.name,
          redirectUris: [input.redirectUri],
        });
        await audit(request, {
          action: 'oauth-client.create',
          target: `${created.clientId} "${input.name}"`,
        });
        return request.show(
          html`${secretOnce(`Client ${created.clientId} created. Secret:`, 'new-secret', created.clientSecret)}`,
        );
      }
      case 'revoke-client': {
        const clientId = form.get('clientId') ?? '';
        await revokeOAuthClient({ orgId, clientId });
        return changed(
          request,
          { action: 'oauth-client.revoke', target: clientId },
          pagePath('assistant'),
          'client-revoked',
        );
      }
      case 'revoke-assistant': {
        const clientId = form.get('clientId') ?? '';
        const revoked = await revokeAssistantGrant({ orgId, clientId });
        return changed(
          request,
          { action: 'assistant.revoke', target: `${revoked.clientName} (${clientId})` },
          pagePath('assistant'),
          'assistant-revoked',
        );
      }
      default:
        throw new InputInvalid('action must be create-client, revoke-client or revoke-assistant');
    }
  },
};
