import type { APIGatewayProxyResult } from 'aws-lambda';
import { idOf, parseForm } from '#api/dashboard/forms.ts';
import { type Html, html } from '#api/dashboard/html.ts';
import type { FormFields } from '#api/dashboard/http.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { changed, type PageRequest, pagePath } from '#api/dashboard/page.ts';
import { actionForm, table } from '#api/dashboard/widgets.ts';
import { providerLabel } from '#api/dashboard/words.ts';
import { DomainError } from '#domain/errors.ts';
import type { Provider } from '#schemas/import.ts';
import { putSequenceProviderLinkEndpoint } from '#schemas/provider-campaigns.ts';
import { deleteSequenceProviderLink } from '#use-cases/delete-sequence-provider-link.ts';
import { listProviderCampaigns } from '#use-cases/list-provider-campaigns.ts';
import { listProviderSequences } from '#use-cases/list-provider-sequences.ts';
import { putSequenceProviderLink } from '#use-cases/put-sequence-provider-link.ts';

/**
 * A connection page's sequences of its provider and the provider campaign
 * each is linked to (docs/dashboard.md): an admin picks a campaign from the
 * provider's own list and links it there, through the API's use case.
 */

/** What the page's notices say after a link or an unlink. */
export const LINK_NOTICES = {
  linked: 'The sequence is linked: contacts scheduled on it from now on are enrolled in that campaign.',
  'linked-waiting':
    'The sequence is linked, but the provider campaign takes no leads now (paused, a draft, or no sender): its leads wait until it runs.',
  unlinked: 'The sequence is unlinked: nothing more is enrolled through it.',
};

interface Connection {
  id: number;
  provider: Provider;
}

/** The sequences of the connection's provider; for an admin, a picker of the provider's campaigns on each. */
export async function linkSection(request: PageRequest, connection: Connection): Promise<Html> {
  const { orgId, base, frame, canChange } = request;
  const sequences = await listProviderSequences({ orgId, provider: connection.provider });
  const here = `${base}${pagePath('providers', connection.id)}`;
  // Only an admin links, so only an admin's page asks the provider for its campaigns.
  const campaigns = canChange && sequences.length > 0 ? await pickable(request, connection) : null;
  const rows = sequences.map((sequence) => {
    const named =
      campaigns && !('problem' in campaigns)
        ? campaigns.data.find((campaign) => campaign.id === sequence.providerCampaignId)?.name
        : undefined;
    const linked =
      sequence.providerCampaignId === null
        ? 'Not linked'
        : `${named ? `${named} (${sequence.providerCampaignId})` : sequence.providerCampaignId}${sequence.connectionId === connection.id ? '' : sequence.connectionId === null ? ' (no connection)' : ` (connection ${sequence.connectionId})`}`;
    const controls =
      campaigns === null || 'problem' in campaigns
        ? null
        : html`<td><form class="inline" method="post" action="${here}">${csrfField(frame.csrfToken)}<input type="hidden" name="action" value="link"><input type="hidden" name="sequence_id" value="${String(sequence.sequenceId)}">
<select name="provider_campaign_id" aria-label="Provider campaign of sequence ${String(sequence.sequenceId)}">${campaigns.data.map(
            (campaign) =>
              html`<option value="${campaign.id}"${campaign.id === sequence.providerCampaignId ? ' selected' : ''}>${campaign.name} (${campaign.id}, ${campaign.status})</option>`,
          )}</select><button type="submit">Link</button></form>${
            sequence.providerCampaignId === null
              ? ''
              : actionForm(
                  frame,
                  here,
                  { action: 'unlink', sequence_id: String(sequence.sequenceId) },
                  'Unlink',
                  {
                    danger: `Unlink sequence ${sequence.sequenceId}? Nothing more is enrolled through it.`,
                  },
                )
          }</td>`;
    return html`<tr><td><a href="${base}${pagePath('campaigns', sequence.campaignId)}">${sequence.campaignName}</a></td><td>Sequence ${String(sequence.sequenceId)}</td><td>${linked}</td>${controls ?? ''}</tr>`;
  });
  const headings = [
    'Campaign',
    'Sequence',
    'Provider campaign',
    ...(campaigns && !('problem' in campaigns) ? ['Link to'] : []),
  ];
  const note =
    campaigns === null
      ? null
      : 'problem' in campaigns
        ? html`<p class="notice error">The provider’s campaigns could not be read: ${campaigns.problem}</p>`
        : campaigns.next === null
          ? null
          : html`<p class="muted">The provider’s first ${String(campaigns.data.length)} campaigns are offered; link another with the API or <code>outreach-admin sequence link</code>.</p>`;
  const provider = providerLabel(connection.provider);
  return html`<h2>Sequences</h2>${note ?? ''}${table(`The ${provider} sequences of the organization and their provider campaigns`, headings, rows, `No ${provider} sequences.`)}`;
}

/** The provider's first page of campaigns, or why it could not be read (a refused key, an unreachable provider). */
async function pickable(
  request: PageRequest,
  connection: Connection,
): Promise<Awaited<ReturnType<typeof listProviderCampaigns>> | { problem: string }> {
  try {
    return await listProviderCampaigns({ orgId: request.orgId, path: { id: connection.id }, query: {} });
  } catch (error) {
    if (error instanceof DomainError) return { problem: error.message };
    throw error;
  }
}

/** A link or unlink posted on the connection's page; null for another action. */
export async function linkAction(
  request: PageRequest & { form: FormFields },
  connectionId: number,
): Promise<APIGatewayProxyResult | null> {
  const { orgId, form } = request;
  const action = form.get('action');
  if (action !== 'link' && action !== 'unlink') return null;
  const sequenceId = idOf(form.get('sequence_id') ?? undefined, 'The sequence id');
  const back = pagePath('providers', connectionId);
  if (action === 'unlink') {
    const old = await deleteSequenceProviderLink({ orgId, path: { sequenceId } });
    return changed(
      request,
      {
        action: 'provider.unlink-sequence',
        target: `sequence ${sequenceId} from ${old.provider} campaign ${old.provider_campaign_id}`,
      },
      back,
      'unlinked',
    );
  }
  const body = parseForm(putSequenceProviderLinkEndpoint.body, {
    connection_id: connectionId,
    provider_campaign_id: form.get('provider_campaign_id') ?? '',
  });
  const link = await putSequenceProviderLink({ orgId, path: { sequenceId }, body });
  return changed(
    request,
    {
      action: 'provider.link-sequence',
      target: `sequence ${sequenceId} to ${link.provider} campaign ${link.provider_campaign_id}`,
    },
    back,
    link.warning === undefined ? 'linked' : 'linked-waiting',
  );
}
