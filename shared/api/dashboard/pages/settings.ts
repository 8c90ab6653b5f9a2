import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { parseForm } from '#api/dashboard/forms.ts';
import { html } from '#api/dashboard/html.ts';
import { csrfField } from '#api/dashboard/layout.ts';
import { changed, type DashboardPage, pagePath } from '#api/dashboard/page.ts';
import { formatCount, formatDate } from '#api/dashboard/words.ts';
import { DEFAULT_ORGANIZATION_THROTTLE } from '#definitions/rate-limits.ts';
import { MAX_COOLDOWN_DAYS, MIN_COOLDOWN_DAYS } from '#domain/organizations.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { setOrganization } from '#use-cases/set-organization.ts';

/** The cooldown window (admins change it) and the rate limit the operator arranged (read-only here). */

const cooldownForm = z.object({
  cooldownDays: z.pipe(
    z.string().check(z.regex(/^\d{1,4}$/, 'must be a whole number of days')),
    z.transform(Number),
  ),
});

export const settingsPage: DashboardPage = {
  title: 'Settings',
  notices: { cooldown: 'The cooldown window was saved.' },
  async get({ orgId, frame, base, canChange }) {
    const organization = await getOrganization({ orgId });
    const limit = organization.rateLimit ?? DEFAULT_ORGANIZATION_THROTTLE;
    const cooldown = canChange
      ? html`<form method="post" action="${base}${pagePath('settings')}">${csrfField(frame.csrfToken)}
<label for="cooldownDays">Cooldown days</label><input id="cooldownDays" name="cooldownDays" type="number" min="${MIN_COOLDOWN_DAYS}" max="${MAX_COOLDOWN_DAYS}" required value="${organization.cooldownDays}" aria-describedby="cooldown-help">
<p id="cooldown-help" class="muted">A contact pushed within this many days of its last sequence is not eligible again (${formatCount(MIN_COOLDOWN_DAYS)}–${formatCount(MAX_COOLDOWN_DAYS)}).</p>
<button class="primary" type="submit">Save cooldown</button></form>`
      : html`<p>Cooldown days: <strong>${organization.cooldownDays}</strong></p>`;
    return html`<h2>Raw push eligibility</h2>${cooldown}
<h2>Rate limit</h2><p>Your API keys may send ${formatCount(limit.rateLimit)} requests a second on average, and up to ${formatCount(limit.burstLimit)} at once in a short burst${organization.rateLimit ? '' : ' (the default plan)'}. Ask your operator to change it.</p>
<h2>Organization</h2><p>${organization.name}, created ${formatDate(organization.createdAt)} (organization id ${organization.orgId}: operators ask for it).</p>`;
  },
  async post(request) {
    const { cooldownDays } = parseForm(cooldownForm, {
      cooldownDays: request.form.get('cooldownDays') ?? '',
    });
    await setOrganization({ orgId: request.orgId, cooldownDays }, () => {
      throw new Error('The dashboard never arranges a rate limit');
    });
    return changed(
      request,
      { action: 'settings.cooldown', target: `${cooldownDays} days` },
      pagePath('settings'),
      'cooldown',
    );
  },
};
