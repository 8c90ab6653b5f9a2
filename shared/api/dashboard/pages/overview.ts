import { type Html, html } from '#api/dashboard/html.ts';
import type { DashboardPage } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
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
const ROW_HEIGHT = 28;
const LABEL_WIDTH = 180;

/**
 * One stacked bar per campaign, its length the campaign's share of the
 * largest campaign. The figure is described by its caption; the table below
 * it holds the same numbers for screen readers.
 */
function statusChart(campaigns: CampaignDetail[]): Html {
  const largest = Math.max(
    1,
    ...campaigns.map((campaign) => STATUSES.reduce((sum, [, , , count]) => sum + count(campaign), 0)),
  );
  const height = campaigns.length * ROW_HEIGHT + 8;
  const rows = campaigns.map((campaign, index) => {
    let x = LABEL_WIDTH;
    const y = index * ROW_HEIGHT + 4;
    const segments = STATUSES.map(([label, , colour, count]) => {
      const width = (count(campaign) / largest) * BAR_WIDTH;
      const segment =
        width > 0
          ? html`<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW_HEIGHT - 8}" fill="${colour}"><title>${label}: ${count(campaign)}</title></rect>`
          : html``;
      x += width;
      return segment;
    });
    return html`<text x="0" y="${y + 15}" font-size="13">${campaign.icp_name.slice(0, 24)}</text>${segments}`;
  });
  return html`<figure><svg class="chart" role="img" aria-labelledby="chart-caption" viewBox="0 0 ${LABEL_WIDTH + BAR_WIDTH} ${height}" width="${LABEL_WIDTH + BAR_WIDTH}" height="${height}">${rows}</svg>
<figcaption id="chart-caption">Contacts of each campaign by status (the table below lists the numbers).</figcaption>
<ul class="legend">${STATUSES.map(([label, css]) => html`<li><span class="swatch s-${css}"></span>${label}</li>`)}</ul></figure>`;
}

export const overviewPage: DashboardPage = {
  title: 'Overview',
  async get({ orgId }) {
    const { overview, campaigns } = await readDashboardOverview({ orgId });
    const cards: [string, number][] = [
      ['Campaigns', overview.total_campaigns],
      ['Contacts sent', overview.total_contacts_sent],
      ['Opened', overview.total_contacts_opened],
      ['Replied', overview.total_contacts_replied],
      ['Scheduled', overview.total_contacts_scheduled],
      ['Bounced', overview.total_bounced],
      ['Unsubscribed', overview.total_unsubscribed],
    ];
    const rows = campaigns.map(
      (campaign) =>
        html`<tr><th scope="row">${campaign.icp_name}</th>${STATUSES.map(([, , , count]) => html`<td class="number">${count(campaign)}</td>`)}<td class="number">${campaign.stats.sent}</td><td class="number">${campaign.stats.opened}</td></tr>`,
    );
    return html`<h2>Analytics</h2><ul class="cards">${cards.map(([label, value]) => html`<li><span class="value">${value}</span>${label}</li>`)}</ul>
<h2>Campaigns</h2>${campaigns.length > 0 ? statusChart(campaigns) : null}
${table('Each campaign’s contacts by status, and its stats', ['Campaign', ...STATUSES.map(([label]) => label), 'Sent', 'Opened'], rows, 'No campaigns yet.')}`;
  },
};
