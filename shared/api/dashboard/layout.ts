import type { DashboardSession } from '#domain/dashboard-sessions.ts';
import type { MemberRole } from '#domain/members.ts';
import { Html, html } from './html.ts';

/**
 * The frame of every dashboard page: a skip link, the navigation (the
 * current page marked for screen readers), who is signed in to which
 * organization with the sign-out form, and the page's `<main>` with its one
 * `<h1>`. What the pages are built of within it is widgets.ts.
 */

/** The pages in the navigation, in order: their path under /dashboard and their name. */
export const NAVIGATION = [
  { path: '', name: 'Overview' },
  { path: 'campaigns', name: 'Campaigns' },
  { path: 'api-keys', name: 'API keys' },
  { path: 'webhooks', name: 'Webhooks' },
  { path: 'assistant', name: 'AI assistant' },
  { path: 'providers', name: 'Providers' },
  { path: 'approvals', name: 'Approvals' },
  { path: 'settings', name: 'Settings' },
  { path: 'members', name: 'Members' },
  { path: 'audit', name: 'Audit log' },
] as const;

export type PagePath = (typeof NAVIGATION)[number]['path'];

/** The signed-in frame's facts. */
export interface Frame {
  base: string;
  current: PagePath | 'organizations';
  email: string;
  organization: { orgId: number; name: string; role: MemberRole } | null;
  csrfToken: string;
}

/** The frame of a session's page outside the organization's pages (the picker, refusals). */
export const sessionFrame = (session: DashboardSession, base: string): Frame => ({
  base,
  current: 'organizations',
  email: session.email,
  organization: session.organization,
  csrfToken: session.csrfToken,
});

/** A hidden field with the session's CSRF token: every form of a signed-in page carries one. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="csrf" value="${token}">`;

/** A one-line notice (`role=status`) or problem (`role=alert`) at the top of a page. */
export function notice(kind: 'ok' | 'error', text: string): Html {
  return html`<p class="notice ${kind}" role="${kind === 'ok' ? 'status' : 'alert'}">${text}</p>`;
}

/**
 * The mark: a paper plane in the accent's square. Inline, so the header needs
 * no request for it; the same drawing is the favicon (assets.ts).
 */
export const MARK_PATHS =
  '<rect width="24" height="24" rx="6" fill="#0b57d0"/><path d="M5.5 11.6 18.5 5.5l-3.2 13-3.6-4.3-4 2.2.9-4.6z" fill="#fff"/><path d="m11.7 14.2 6.8-8.7" stroke="#0b57d0" stroke-width="1.2"/>';

const brand = (base: string) =>
  html`<a class="brand" href="${base}/dashboard"><svg class="mark" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">${new Html(MARK_PATHS)}</svg>Outreach</a>`;

function documentOf(base: string, title: string, header: Html, main: Html): Html {
  return html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Outreach dashboard</title>
<link rel="icon" href="${base}/dashboard/assets/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="${base}/dashboard/assets/app.css"><script type="module" src="${base}/dashboard/assets/app.js"></script></head>
<body><a class="skip" href="#main">Skip to content</a>${header}<main id="main" tabindex="-1">${main}</main></body></html>`;
}

/**
 * A page of the signed-in dashboard. The header is one row on a wide screen
 * (the mark, the pages as tabs, the account menu); on a narrow one the tabs
 * take a row of their own and scroll sideways within it. Who is signed in,
 * switching organization and signing out are in the account menu (a
 * `<details>`: it opens without the script), so the tabs keep the room.
 */
export function signedInPage(frame: Frame, title: string, content: Html, top: Html | null = null): Html {
  const { base } = frame;
  const navigation = frame.organization
    ? html`<nav class="tabs" aria-label="Dashboard"><ul>${NAVIGATION.map(
        (entry) =>
          html`<li><a href="${base}/dashboard${entry.path ? `/${entry.path}` : ''}"${
            entry.path === frame.current ? new Html(' aria-current="page"') : ''
          }>${entry.name}</a></li>`,
      )}</ul></nav>`
    : html``;
  const account = frame.organization
    ? `${frame.organization.name} (${frame.organization.role})`
    : frame.email;
  const header = html`<header class="top">${brand(base)}${navigation}<details class="account"><summary title="${account}"><span>${account}</span></summary>
<div class="menu"><p class="muted">Signed in as <strong>${frame.email}</strong></p>${
    frame.organization ? html`<p><a href="${base}/dashboard/organizations">Switch organization</a></p>` : null
  }<form method="post" action="${base}/dashboard/sign-out">${csrfField(frame.csrfToken)}<button type="submit">Sign out</button></form></div></details></header>`;
  return documentOf(base, title, header, html`<h1>${title}</h1>${top}${content}`);
}

/** A page outside a session (signed out, sign-in problems). */
export function publicPage(base: string, title: string, content: Html): Html {
  return documentOf(
    base,
    title,
    html`<header class="top">${brand(base)}</header>`,
    html`<h1>${title}</h1>${content}`,
  );
}
