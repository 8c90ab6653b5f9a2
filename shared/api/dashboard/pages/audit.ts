import { html } from '#api/dashboard/html.ts';
import { type DashboardPage, pagePath } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
import { auditActionLabel, formatDateTime } from '#api/dashboard/words.ts';
import { readAuditLog } from '#use-cases/read-audit-log.ts';

const PAGE_SIZE = 50;

/** Every change made in the dashboard and to the members, newest first, 50 a page. */
export const auditPage: DashboardPage = {
  title: 'Audit log',
  async get({ orgId, query, base }) {
    const page = await readAuditLog({ orgId, take: PAGE_SIZE, cursor: query.cursor });
    const rows = page.entries.map(
      (entry) =>
        html`<tr><td><time datetime="${entry.at}">${formatDateTime(entry.at)}</time></td><td>${entry.actor}</td><td><span title="${entry.action}">${auditActionLabel(entry.action)}</span></td><td>${entry.target}</td></tr>`,
    );
    return html`${table('Changes, newest first', ['When', 'Who', 'What', 'Target'], rows, 'No changes recorded yet.')}
${page.next ? html`<p><a href="${base}${pagePath('audit')}?cursor=${page.next}">Older changes</a></p>` : null}`;
  },
};
