import type { PagePath } from '#api/dashboard/layout.ts';
import type { DashboardPage } from '#api/dashboard/page.ts';

/**
 * Every page of the organization's dashboard, by its path in the navigation
 * (layout.ts), each loaded when first asked for: the bundler makes each page,
 * with the use cases behind it, a chunk of its own, so a cold start reads the
 * router and the session, and then only the page the request is for.
 */
export const DASHBOARD_PAGES: Readonly<Record<PagePath, () => Promise<DashboardPage>>> = {
  '': () => import('./overview.ts').then((module) => module.overviewPage),
  campaigns: () => import('./campaigns.ts').then((module) => module.campaignsPage),
  'api-keys': () => import('./api-keys.ts').then((module) => module.apiKeysPage),
  webhooks: () => import('./webhooks.ts').then((module) => module.webhooksPage),
  assistant: () => import('./assistant.ts').then((module) => module.assistantPage),
  providers: () => import('./providers.ts').then((module) => module.providersPage),
  approvals: () => import('./approvals.ts').then((module) => module.approvalsPage),
  settings: () => import('./settings.ts').then((module) => module.settingsPage),
  members: () => import('./members.ts').then((module) => module.membersPage),
  audit: () => import('./audit.ts').then((module) => module.auditPage),
};
