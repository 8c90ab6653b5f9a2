import type { DashboardPage } from '#api/dashboard/page.ts';
import { apiKeysPage } from './api-keys.ts';
import { approvalsPage } from './approvals.ts';
import { assistantPage } from './assistant.ts';
import { auditPage } from './audit.ts';
import { membersPage } from './members.ts';
import { overviewPage } from './overview.ts';
import { providersPage } from './providers.ts';
import { settingsPage } from './settings.ts';
import { webhooksPage } from './webhooks.ts';

/** Every page of the organization's dashboard, in the navigation's order. */
export const DASHBOARD_PAGES: readonly DashboardPage[] = [
  overviewPage,
  apiKeysPage,
  webhooksPage,
  assistantPage,
  providersPage,
  approvalsPage,
  settingsPage,
  membersPage,
  auditPage,
];
