import { type Html, html } from '#api/dashboard/html.ts';
import type { DashboardPage } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
import { formatCount, formatRate } from '#api/dashboard/words.ts';
import type { CampaignDetail } from '#schemas/resources.ts';
import { readDashboardOverview } from '#use-cases/read-dashboard-overview.ts';

/** The analytics overview, and each campaign's stats with a chart of its contacts by status. */

/** Each status: its label, its swatch's class and colour, and the campaign's count of it. */
const STATUSES: readonly [string, string, string, (campaign: CampaignDetail) => number][] = [
  ['Pending approval', 'pending-approval', '#bf8700', (campaign) => campaign.contacts.pending_approval],
  ['Scheduled', 'scheduled', '#0969da', (campaign) => campaign.contacts.scheduled],
  ['In progress', 'in-progress', '#8250df', (campaign) => campaign.contacts.in_progress],
  ['Completed', 'completed', '#57606a', (campaign) => campaign.contacts.completed],
  ['Replied', 'replied', '#1a7f37', (campaign) => campaign.contacts.replied],
  ['Bounced', 'bounced', '#cf222e', (campaign) => campaign.stats.bounced],
  ['Unsubscribed', 'unsubscribed', '#e16f24', (campaign) => campaign.stats.unsubscribed],
];

const BAR_WIDTH = 600;
const BAR_HEIGHT = 20;

/**
 * One stacked bar per campaign, its length the campaign's share of the
 * largest campaign. Each name is text beside (on a narrow screen, above) its
 * bar, so it wraps rather than being cut; each bar is an SVG that stretches to
 * the room there is. The figure is an image described by its caption; the
 * table below it holds the same numbers for screen readers.
 */
function statusChart(campaigns: CampaignDetail[]): Html {
  const largest = Math.max(
    1,
    ...campaigns.map((campaign) => STATUSES.reduce((sum, [, , , count]) => sum + count(campaign), 0)),
  );
  const bars = campaigns.map((campaign) => {
    let x = 0;
    const segments = STATUSES.map(([label, , colour, count]) => {
      const width = (count(campaign) / largest) * BAR_WIDTH;
      const segment =
        width > 0
          ? html`<rect x="${x.toFixed(1)}" y="0" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${colour}"><title>${campaign.icp_name}, ${label}: ${formatCount(count(campaign))}</title></rect>`
          : html``;
      x += width;
      return segment;
    });
    return html`<div class="bar"><span class="bar-label">${campaign.icp_name}</span><svg viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" preserveAspectRatio="none" focusable="false">${segments}</svg></div>`;
  });
  return html`<figure><div class="bars" role="img" aria-labelledby="chart-caption">${bars}</div>
<figcaption id="chart-caption">Contacts of each campaign by status (the table below lists the numbers).</figcaption>
<ul class="legend">${STATUSES.map(([label, css]) => html`<li><span class="swatch s-${css}"></span>${label}</li>`)}</ul></figure>`;
}

export const overviewPage: DashboardPage = {
  title: 'Overview',
  async get({ orgId }) {
    const { overview, campaigns } = await readDashboardOverview({ orgId });
    const sent = overview.total_contacts_sent;
    const cards: [string, number, string | null][] = [
      ['Campaigns', overview.total_campaigns, null],
      ['Contacts sent', sent, null],
      ['Opened', overview.total_contacts_opened, formatRate(overview.total_contacts_opened, sent)],
      ['Replied', overview.total_contacts_replied, formatRate(overview.total_contacts_replied, sent)],
      ['Scheduled', overview.total_contacts_scheduled, null],
      ['Bounced', overview.total_bounced, formatRate(overview.total_bounced, sent)],
      ['Unsubscribed', overview.total_unsubscribed, formatRate(overview.total_unsubscribed, sent)],
    ];
    const number = (value: number) => html`<td class="number">${formatCount(value)}</td>`;
    const rows = campaigns.map(
      (campaign) =>
        html`<tr><th scope="row">${campaign.icp_name}</th>${STATUSES.map(([, , , count]) => number(count(campaign)))}${number(campaign.stats.sent)}${number(campaign.stats.opened)}<td class="number">${formatRate(campaign.stats.opened, campaign.stats.sent)}</td></tr>`,
    );
    return html`<h2>Analytics</h2><ul class="cards">${cards.map(([label, value, rate]) => html`<li><span class="value">${formatCount(value)}</span>${label}${rate === null ? null : html`<span class="detail">${rate} of sent</span>`}</li>`)}</ul>
<h2>Campaigns</h2>${campaigns.length > 0 ? statusChart(campaigns) : null}
${table('Each campaign’s contacts by status, and its stats', ['Campaign', ...STATUSES.map(([label]) => label), 'Sent', 'Opened', 'Open rate'], rows, 'No campaigns yet.')}`;
  },
};
