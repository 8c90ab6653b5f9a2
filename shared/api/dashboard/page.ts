import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Actor } from '#domain/audit-log.ts';
import { recordChange } from '#domain/audit-log.ts';
import type { MemberRole } from '#domain/members.ts';
import type { Html } from './html.ts';
import type { FormFields } from './http.ts';
import { seeOther } from './http.ts';
import type { Frame, PagePath } from './layout.ts';

/**
 * What a dashboard page is given and gives back. The router has already
 * checked the session, the organization, the CSRF token of a form and, for a
 * form, that the person is an admin; a page only reads and acts.
 */
export interface PageRequest {
  event: APIGatewayProxyEvent;
  base: string;
  frame: Frame & { organization: { orgId: number; name: string; role: MemberRole } };
  orgId: number;
  /** Who acts, for the audit log. */
  actor: Exclude<Actor, 'operator'>;
  /** The second path segment (`/dashboard/webhooks/{item}`), when there is one. */
  item: string | undefined;
  query: Record<string, string | undefined>;
  /** The submitted form (POST); null on GET. */
  form: FormFields | null;
  /** Whether the person may change things (admins): pages show no change controls otherwise. */
  canChange: boolean;
  /** The page as GET shows it, with `top` above it: how a form shows a secret once (no redirect). */
  show(top: Html): Promise<APIGatewayProxyResult>;
}

export interface DashboardPage {
  title: string;
  /** Whether `/dashboard/<path>/<item>` exists (a webhook's page, a provider connection's). */
  hasItems?: boolean;
  get(request: PageRequest): Promise<Html>;
  /** What each change of the page reports once done, by the key `changed` was given. */
  notices?: Record<string, string>;
  /** The page's forms; absent for pages that change nothing. */
  post?(request: PageRequest & { form: FormFields }): Promise<APIGatewayProxyResult>;
}

/** Records a change made through the page in the audit log. */
export function audit(request: PageRequest, change: { action: string; target: string }): Promise<void> {
  return recordChange(request.orgId, request.actor, change.action, change.target);
}

/** After a change: recorded in the audit log, then back to a page (303) that says what was done. */
export async function changed(
  request: PageRequest,
  change: { action: string; target: string },
  location: string,
  /** A key of the page's `notices`. */
  done: string,
): Promise<APIGatewayProxyResult> {
  await recordChange(request.orgId, request.actor, change.action, change.target);
  const url = new URL(location, 'http://dashboard');
  url.searchParams.set('done', done);
  return seeOther(`${request.base}${url.pathname}${url.search}`);
}

/** The dashboard's own path of a page. */
export const pagePath = (path: PagePath, item?: string | number): string =>
  `/dashboard${path ? `/${path}` : ''}${item !== undefined ? `/${encodeURIComponent(String(item))}` : ''}`;
