import type { MemberRole } from '#domain/members.ts';
import { signedInMember } from '../../infra/local/dashboard-member.ts';
import { type HttpAnswer, send } from './api-client.ts';

/**
 * A dashboard session for HTTP-level tests (infra/local/dashboard-member.ts)
 * and a client that sends its cookie and, on forms, its CSRF token. The
 * browser tests sign in for real at the local OpenID provider.
 */
export interface DashboardClient {
  email: string;
  cookie: string;
  csrfToken: string;
  get(path: string): Promise<HttpAnswer>;
  /** A form post; `csrf` is the session's unless the fields name one (or `null`: none). */
  post(path: string, fields: Record<string, string | string[]>, csrf?: string | null): Promise<HttpAnswer>;
}

export const SESSION_COOKIE = 'outreach_session';

export async function dashboardClient(
  apiUrl: string,
  member: { orgId: number; role: MemberRole; email?: string },
): Promise<DashboardClient> {
  const { email, cookie, csrfToken } = await signedInMember(member.orgId, member.role, member.email);
  return {
    email,
    cookie,
    csrfToken,
    get: (path) => send(apiUrl, { method: 'GET', url: path, headers: { cookie } }),
    post(path, fields, csrf) {
      const body = new URLSearchParams();
      if (csrf !== null) body.append('csrf', csrf ?? csrfToken);
      for (const [name, value] of Object.entries(fields))
        for (const each of [value].flat()) body.append(name, each);
      return send(apiUrl, {
        method: 'POST',
        url: path,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    },
  };
}
