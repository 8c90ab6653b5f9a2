import fc from 'fast-check';
import { DASHBOARD_ASSETS } from '#api/dashboard/assets.ts';
import { NAVIGATION } from '#api/dashboard/layout.ts';
import { validRequest } from '../../../infra/local/route-requests.ts';
import { requestFlaws, urlOf } from './api-cases.ts';
import {
  asciiLongerThan,
  badIdText,
  queryString,
  segment,
  unicode,
  unknownId,
  unknownParameters,
} from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { target, world } from './world.ts';

/**
 * The dashboard's routes, signed in as an admin of the world's organization:
 * unknown pages and items, ids that are not ids or name nothing, asset names
 * it does not serve (404, 400: its pages, never a stack trace), forms with a
 * missing or forged CSRF token (403, nothing changed) or over 64 KiB (413),
 * and query parameters it ignores.
 */

const KNOWN_PAGES = new Set<string>([
  ...NAVIGATION.map((entry) => entry.path),
  'organizations',
  'sign-in',
  'sign-out',
  'signed-out',
  'callback',
  'assets',
]);

const HTML = /^text\/html/;

export function dashboardCases(route: Route): fc.Arbitrary<Case> {
  const valid = validRequest(route.name as 'dashboard', target());
  const request: BadRequest = { method: valid.method, url: valid.url, headers: valid.headers };
  const cookie = { cookie: world.member.cookie };
  const page = (url: string, status: number): Case => ({
    flaw: `GET ${url.slice(0, 120)}`,
    request: { method: 'GET', url, headers: cookie },
    status,
    protocol: 'html',
  });
  const form = (flaw: string, body: string, status: number): Case => ({
    flaw,
    request: {
      method: 'POST',
      url: '/dashboard/settings',
      headers: { ...cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    },
    status,
    protocol: 'html',
  });
  const flaws: fc.Arbitrary<Case>[] = [
    ...requestFlaws(route, request),
    unknownParameters(['done', 'cursor', 'campaign', 'next', 'return_to']).map(
      (unknown): Case => ({
        flaw: 'query parameters',
        request: { ...request, url: `${request.url}${queryString(unknown)}` },
        status: 200,
        protocol: 'ignored',
        contentType: HTML,
      }),
    ),
    // A form whose CSRF token is missing or not the session's: refused, nothing changed.
    fc
      .option(unicode(60), { nil: undefined })
      .filter((csrf) => csrf !== world.member.csrfToken)
      .map((csrf) =>
        form(
          `settings form with CSRF token ${JSON.stringify(csrf)}`,
          new URLSearchParams({ ...(csrf === undefined ? {} : { csrf }), cooldownDays: '7' }).toString(),
          403,
        ),
      ),
    fc.constant(
      form(
        'a form over 64 KiB',
        new URLSearchParams({
          csrf: world.member.csrfToken,
          cooldownDays: '7',
          pad: 'x'.repeat(65 * 1024),
        }).toString(),
        413,
      ),
    ),
  ];
  if (route.name === 'dashboard-page') {
    flaws.push(
      fc
        .oneof(unicode(40, 1), asciiLongerThan(300))
        .filter((name) => !KNOWN_PAGES.has(name) && name !== '.' && name !== '..')
        .map((name) => page(urlOf(route.path, { page: segment(name) }), 404)),
    );
  }
  if (route.name === 'dashboard-item') {
    flaws.push(
      badIdText.map((id) => page(urlOf(route.path, { page: 'webhooks', item: segment(id) }), 400)),
      unknownId.map((id) => page(urlOf(route.path, { page: 'providers', item: String(id) }), 404)),
      fc
        .oneof(
          unicode(40, 1),
          fc.constantFrom('constructor', '__proto__', '..%2Fpackage.json', 'app.css.map'),
        )
        .filter((name) => !Object.hasOwn(DASHBOARD_ASSETS, name) && name !== '.' && name !== '..')
        .map((name) => page(urlOf(route.path, { page: 'assets', item: segment(name) }), 404)),
      fc
        .constantFrom('api-keys', 'settings', 'members', 'audit', 'approvals', 'assistant')
        .map((name) => page(urlOf(route.path, { page: name, item: '1' }), 404)),
    );
  }
  return fc.oneof(...flaws);
}
