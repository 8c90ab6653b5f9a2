import fc from 'fast-check';
import { expect } from 'vitest';
import { JSON_TOO_DEEP_MESSAGE } from '#api/http/json-depth.ts';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION } from '#domain/provider-connections.ts';
import { MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { MAX_JOBS_PAGE } from '#schemas/jobs.ts';
import { MAX_PAGE_SIZE } from '#schemas/params.ts';
import { MAX_RECIPIENTS, MAX_REPLY_BODY } from '#schemas/replies.ts';
import { API_PREFIX, type ApiEndpoint, type BodyField, type PathParameter, urlOf } from './api-cases.ts';
import {
  asciiLongerThan,
  badDateTimeText,
  badDomainText,
  badIdJson,
  badIdText,
  badIntegerText,
  badStatusText,
  json,
  longerThan,
  manyItems,
  nestedJson,
  notABoolean,
  notAnEmail,
  notAString,
  objectText,
  queryString,
  unknownId,
  unknownParameters,
} from './arbitraries.ts';
import type { BadRequest, Case, RouteName } from './cases.ts';
import {
  badAddressList,
  badBaseUrl,
  badCampaignCursor,
  badEvents,
  badProvider,
  badProviderApiKey,
  badProviderCampaignId,
  badUnmatchedCursor,
  badWebhookUrl,
  invalidContact,
  UNMATCHED_CURSOR,
} from './field-arbitraries.ts';
import { RUNNING_PUSH, target, world } from './world.ts';

/**
 * The API routes' inputs for the bad-input generators: each path, query and
 * body field with the values the endpoint must refuse, and the flaws only one
 * endpoint has (state conflicts, cross-field rules, partial acceptance).
 */

/** An id: malformed ones are 400, unknown ones 404. */
export const ID: PathParameter = { bad: badIdText, unknown: unknownId.map(String) };

export const SKIP = { good: '0', bad: badIntegerText(0) };
export const TAKE = { good: '10', bad: badIntegerText(1, MAX_PAGE_SIZE) };

export const optionalBoolean: BodyField = { required: false, bad: notABoolean };
export const sequenceIdField: BodyField = { required: false, bad: badIdJson };
export const bypassFlags = {
  bypassCooldownOtherSequences: optionalBoolean,
  bypassGlobalExcluded: optionalBoolean,
  takeoverUnapproved: optionalBoolean,
};

/**
 * The routes outside `/public/v1`, whose errors speak other protocols or that take no API key
 * (mcp-cases.ts, oauth-cases.ts, provider-webhook-cases.ts, dashboard-cases.ts, generators.ts).
 */
export type NonApiRoute =
  | 'mcp'
  | 'receive-provider-webhook'
  | 'oauth-register'
  | 'oauth-token'
  | 'oauth-authorize'
  | 'oauth-authorize-submit'
  | 'oauth-protected-resource'
  | 'oauth-protected-resource-mcp'
  | 'oauth-authorization-server'
  | 'openapi'
  | 'docs'
  | 'docs-asset'
  | 'dashboard'
  | 'dashboard-page'
  | 'dashboard-item';

/** Every API route's inputs; a route missing here is a type error. */
export function apiEndpoints(): Record<Exclude<RouteName, NonApiRoute>, ApiEndpoint> {
  const { accountDomain, accountId, campaignId } = target();
  const campaign = { id: ID };
  const webhook = { id: ID };
  const connection = { id: ID };
  /**
   * Connections that exist but are not the organization's to use: another organization's, and one
   * deleted since. Both are 404, as an unknown id is (and nothing is changed).
   */
  const otherConnections = (valid: BadRequest) =>
    fc
      .constantFrom(
        { flaw: "another organization's connection", id: world.otherProviderWebhook.connection },
        { flaw: 'a deleted connection', id: world.deletedProviderWebhook.connection },
      )
      .map(
        ({ flaw, id }): Case => ({
          flaw,
          request: {
            ...valid,
            url: valid.url.replace(
              `/provider-connections/${world.providerConnectionId}`,
              `/provider-connections/${id}`,
            ),
          },
          status: 404,
          protocol: 'message',
        }),
      );
  return {
    auth: {},
    'list-campaigns': {},
    'get-analytics-overview': {},
    'list-webhooks': {},
    'get-campaign': { path: campaign },
    'list-campaign-accounts': {
      path: campaign,
      query: { from: SKIP, take: TAKE },
    },
    'list-campaign-contacts': {
      path: campaign,
      query: { skip: SKIP, take: TAKE, status: { good: 'scheduled', bad: badStatusText } },
    },
    'list-campaign-messages': { path: campaign, query: { skip: SKIP, take: TAKE } },
    'push-raw-contacts': {
      path: campaign,
      body: {
        contacts: {
          required: true,
          bad: fc.oneof(
            fc.constantFrom('"ann@acme.com"', '{}', 'null', '1', 'true', json({ email: 'ann@acme.com' })),
            fc
              .integer({ min: MAX_CONTACTS_PER_REQUEST + 1, max: MAX_CONTACTS_PER_REQUEST + 50 })
              .map((count) => manyItems('{"email":"bulk@fresh-example.com"}', count)),
          ),
        },
        triggerIntake: optionalBoolean,
        skipIneligible: optionalBoolean,
        ...bypassFlags,
        sequenceId: sequenceIdField,
      },
      extra: (valid) => {
        const push = (body: unknown, headers: Record<string, string> = {}) => ({
          ...valid,
          headers: { ...valid.headers, ...headers },
          body: typeof body === 'string' ? body : json(body),
        });
        return [
          fc.constantFrom(203, 999_999).map(
            (sequenceId): Case => ({
              flaw: `sequence ${sequenceId} is not one of the campaign's`,
              request: push({ contacts: [{ email: 'seq@fresh-example.com' }], sequenceId }),
              status: 400,
              protocol: 'message',
              mentions: "'sequenceId'",
            }),
          ),
          fc
            .oneof(
              fc.constant(''),
              longerThan(255).map((key) => key.replace(/[^\x21-\x7e]/g, 'k')),
            )
            .map(
              (key): Case => ({
                flaw: `an Idempotency-Key of ${key.length} characters`,
                request: push({ contacts: [] }, { 'idempotency-key': key }),
                status: 400,
                protocol: 'message',
                mentions: 'Idempotency-Key',
              }),
            ),
          fc.constant<Case>({
            flaw: 'an Idempotency-Key used before with another body',
            request: push(
              { contacts: [{ email: 'other@fresh-example.com' }] },
              {
                'idempotency-key': world.usedIdempotencyKey,
              },
            ),
            status: 422,
            protocol: 'message',
          }),
          fc.constant<Case>({
            flaw: 'an Idempotency-Key whose request is still running',
            request: push(RUNNING_PUSH, { 'idempotency-key': world.runningIdempotencyKey }),
            status: 409,
            protocol: 'message',
          }),
          fc.tuple(unknownId, fc.stringMatching(/^[\x21-\x7e]{1,64}$/)).map(
            ([id, key]): Case => ({
              flaw: `an unknown campaign ${id} under a fresh Idempotency-Key`,
              request: {
                ...push(
                  { contacts: [{ email: 'x@fresh-example.com' }] },
                  { 'idempotency-key': `fresh-${key}` },
                ),
                url: `${API_PREFIX}/campaigns/${id}/raw/contacts`,
              },
              status: 404,
              protocol: 'message',
            }),
          ),
          // Deep in a contact's variables (the body, contacts, the contact and variables are four levels):
          // the whole push is refused before any contact is read.
          nestedJson(4).map(
            (nested): Case => ({
              flaw: `variables nesting the body ${nested.levels} deep`,
              request: push(
                `{"contacts":[{"email":"deep@fresh-example.com","variables":{"v":${nested.text}}}]}`,
              ),
              status: 400,
              protocol: 'message',
              message: JSON_TOO_DEEP_MESSAGE,
            }),
          ),
          // Each contact is validated on its own: a push of only invalid contacts answers 200 with all of them in `errors`.
          fc.array(invalidContact, { minLength: 1, maxLength: 5 }).map(
            (contacts): Case => ({
              flaw: `only invalid contacts: ${contacts.join(',').slice(0, 200)}`,
              request: push(`{"contacts":[${contacts.join(',')}]}`),
              status: 200,
              protocol: 'ignored',
              ignoredBody: (body) => {
                expect(body).toMatchObject({ created: 0, updated: 0, skipped: 0, assignmentIds: [] });
                expect(body.errors).toHaveLength(contacts.length);
              },
            }),
          ),
        ];
      },
    },
    'check-eligibility': {
      path: campaign,
      body: {
        emails: {
          required: true,
          bad: fc.oneof(
            fc.constantFrom('"ann@acme.com"', '{}', 'null', '1', '[1]', '[null]', '[["ann@acme.com"]]'),
            fc
              .tuple(fc.array(fc.emailAddress(), { maxLength: 3 }), notAnEmail)
              .map(([good, bad]) => json([...good, bad])),
            fc
              .integer({ min: MAX_CONTACTS_PER_REQUEST + 1, max: MAX_CONTACTS_PER_REQUEST + 50 })
              .map((count) => manyItems('"bulk@fresh-example.com"', count)),
          ),
        },
        ...bypassFlags,
        sequenceId: sequenceIdField,
      },
      extra: (valid) => [
        fc.constantFrom(203, 999_999).map(
          (sequenceId): Case => ({
            flaw: `sequence ${sequenceId} is not one of the campaign's`,
            request: { ...valid, body: json({ emails: ['ann@acme.com'], sequenceId }) },
            status: 400,
            protocol: 'message',
            mentions: "'sequenceId'",
          }),
        ),
      ],
    },
    'reply-to-assignment': {
      path: { id: ID },
      body: {
        body: {
          required: true,
          bad: fc.oneof(notAString, fc.constant('""'), longerThan(MAX_REPLY_BODY).map(json)),
        },
        plain_text: optionalBoolean,
        to: { required: false, bad: badAddressList },
        cc: { required: false, bad: badAddressList },
        bcc: { required: false, bad: badAddressList },
      },
      extra: (valid) => [
        fc.constantFrom('to', 'cc', 'bcc').map(
          (field): Case => ({
            flaw: `${MAX_RECIPIENTS + 1} recipients in ${field}`,
            request: {
              ...valid,
              body: json({
                body: 'Hi',
                [field]: Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `r${i}@fresh-example.com`).join(
                  ',',
                ),
              }),
            },
            status: 400,
            protocol: 'message',
            mentions: "'to'",
          }),
        ),
        // Within 100,000 characters, but beyond what the stored HTML may take (after plain_text's escaping).
        fc
          .constantFrom(
            { text: '"', plainText: true },
            { text: '&', plainText: true },
            { text: '<', plainText: true },
            { text: '𐀀', plainText: false },
          )
          .map(
            ({ text, plainText }): Case => ({
              flaw: `${MAX_REPLY_BODY} × ${text}${plainText ? ' as plain text' : ''}`,
              request: { ...valid, body: json({ body: text.repeat(MAX_REPLY_BODY), plain_text: plainText }) },
              status: 400,
              protocol: 'message',
              mentions: "'body'",
            }),
          ),
        fc.constant<Case>({
          flaw: 'no `to` for a contact without an email address',
          request: { ...valid, url: `${API_PREFIX}/assignments/504/reply`, body: json({ body: 'Hi' }) },
          status: 400,
          protocol: 'message',
          mentions: "'to'",
        }),
      ],
    },
    'lookup-account': {
      query: {
        domain: { good: accountDomain, bad: badDomainText },
        id: { good: String(accountId), bad: badIdText },
        icpId: { good: String(campaignId), bad: badIdText },
      },
      extra: (valid) => {
        const lookup = (pairs: [string, string][]) => ({
          ...valid,
          url: `${API_PREFIX}/accounts${queryString(pairs)}`,
        });
        return [
          unknownParameters(['domain', 'id']).map(
            (unknown): Case => ({
              flaw: 'neither domain nor id',
              request: lookup([...unknown, ['icpId', '101']]),
              status: 400,
              protocol: 'message',
              mentions: "'domain'",
            }),
          ),
          fc
            .oneof(
              fc
                .stringMatching(/^[a-z][a-z0-9]{0,20}$/)
                .map((label): [string, string][] => [['domain', `${label}.unknown-example.com`]]),
              unknownId.map((id): [string, string][] => [['id', String(id)]]),
              unknownId.map((id): [string, string][] => [
                ['domain', 'acme.com'],
                ['icpId', String(id)],
              ]),
              fc.constant<[string, string][]>([
                ['domain', 'acme.com'],
                ['id', '302'],
              ]),
            )
            .map(
              (pairs): Case => ({
                flaw: `nothing matches ${new URLSearchParams(pairs).toString()}`,
                request: lookup(pairs),
                status: 404,
                protocol: 'message',
              }),
            ),
        ];
      },
    },
    'exclude-account': {
      body: {
        company_url: {
          required: true,
          bad: fc.oneof(notAString, fc.constant('""'), badDomainText.map(json), longerThan(2048).map(json)),
        },
        company_name: {
          required: false,
          bad: fc.oneof(notAString, longerThan(500).map(json)),
        },
        company_linkedin_url: {
          required: false,
          bad: fc.oneof(notAString, longerThan(2048).map(json)),
        },
      },
    },
    'search-jobs': {
      // A domain names a search, not a resource: an unknown one is an empty page, not 404.
      path: { domain: { bad: fc.oneof(badDomainText, asciiLongerThan(2048)) } },
      query: {
        cursor: { bad: badIdText },
        since: { good: '2026-01-01T00:00:00Z', bad: badDateTimeText },
        take: { good: '10', bad: badIntegerText(1, MAX_JOBS_PAGE) },
      },
      extra: (valid) => [
        // A well-formed cursor that is no position of this domain's search is 400 (docs/decisions.md).
        unknownId.map(
          (cursor): Case => ({
            flaw: `cursor ${cursor} of no search`,
            request: { ...valid, url: `${valid.url}?cursor=${cursor}` },
            status: 400,
            protocol: 'message',
            mentions: "'cursor'",
          }),
        ),
      ],
    },
    'create-webhook': {
      body: {
        url: { required: true, bad: badWebhookUrl },
        events: { required: true, bad: badEvents },
      },
      extra: (valid) => [
        fc.constant<Case>({
          flaw: `an organization with ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks already`,
          request: { ...valid, headers: { ...valid.headers, 'x-api-key': world.fullApiKey } },
          status: 409,
          protocol: 'message',
        }),
      ],
    },
    'get-webhook': { path: webhook },
    'update-webhook': {
      path: webhook,
      body: {
        url: { required: false, bad: badWebhookUrl },
        events: { required: false, bad: badEvents },
        enabled: { required: false, bad: notABoolean },
      },
      extra: (valid) => [
        unknownParameters(['url', 'events', 'enabled']).map(
          (extra): Case => ({
            flaw: 'none of url, events, enabled',
            request: {
              ...valid,
              body: objectText(Object.fromEntries(extra.map(([name, value]) => [name, json(value)]))),
            },
            status: 400,
            protocol: 'message',
          }),
        ),
      ],
    },
    'delete-webhook': { path: webhook },
    'test-webhook': { path: webhook },
    'rotate-webhook-secret': { path: webhook },
    'list-webhook-deliveries': {
      path: webhook,
      query: { take: TAKE, cursor: { bad: badIdText } },
    },
    'list-provider-connections': {},
    'create-provider-connection': {
      body: {
        provider: { required: true, bad: badProvider },
        api_key: { required: true, bad: badProviderApiKey },
        base_url: { required: false, bad: badBaseUrl },
      },
      extra: (valid) => [
        fc.constant<Case>({
          flaw: `an organization with ${MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION} connections already`,
          request: { ...valid, headers: { ...valid.headers, 'x-api-key': world.fullApiKey } },
          status: 409,
          protocol: 'message',
        }),
      ],
    },
    'get-provider-connection': { path: connection, extra: (valid) => [otherConnections(valid)] },
    'update-provider-connection': {
      path: connection,
      body: { api_key: { required: true, bad: badProviderApiKey } },
      extra: (valid) => [otherConnections(valid)],
    },
    'delete-provider-connection': { path: connection, extra: (valid) => [otherConnections(valid)] },
    'rotate-provider-webhook-url': { path: connection, extra: (valid) => [otherConnections(valid)] },
    'check-provider-connection': { path: connection, extra: (valid) => [otherConnections(valid)] },
    'list-provider-unmatched': {
      path: connection,
      query: { take: TAKE, cursor: { bad: badUnmatchedCursor } },
      extra: (valid) => [
        otherConnections(valid),
        // A cursor of the right shape is a position, whatever it names: a page (maybe empty), never an error.
        fc.stringMatching(UNMATCHED_CURSOR).map(
          (cursor): Case => ({
            flaw: `cursor ${cursor.slice(0, 100)} of no page`,
            request: { ...valid, url: `${valid.url}${queryString([['cursor', cursor]])}` },
            status: 200,
            protocol: 'ignored',
            ignoredBody: (body) => {
              expect(Object.keys(body).sort()).toEqual(['data', 'next']);
              expect(body.data).toEqual(expect.any(Array));
            },
          }),
        ),
      ],
    },
    'list-provider-campaigns': {
      path: connection,
      query: { cursor: { bad: badCampaignCursor } },
      extra: (valid) => [otherConnections(valid)],
    },
    'get-sequence-provider-link': { path: { sequenceId: ID } },
    'delete-sequence-provider-link': { path: { sequenceId: ID } },
    'put-sequence-provider-link': {
      path: { sequenceId: ID },
      body: {
        connection_id: { required: true, bad: badIdJson },
        provider_campaign_id: { required: true, bad: badProviderCampaignId },
      },
      extra: (valid) => [
        fc
          .constantFrom(
            {
              flaw: "another organization's connection",
              id: world.otherProviderWebhook.connection,
              status: 404,
            },
            { flaw: 'a deleted connection', id: world.deletedProviderWebhook.connection, status: 404 },
          )
          .map(
            ({ flaw, id, status }): Case => ({
              flaw,
              request: { ...valid, body: json({ ...JSON.parse(valid.body!), connection_id: id }) },
              status,
              protocol: 'message',
            }),
          ),
        fc.constant<Case>({
          flaw: 'a campaign the provider does not have',
          request: {
            ...valid,
            body: json({ ...JSON.parse(valid.body!), provider_campaign_id: 'no-such-campaign' }),
          },
          status: 400,
          protocol: 'message',
        }),
      ],
    },
    'redeliver-webhook-delivery': {
      path: { id: ID, deliveryId: ID },
      extra: (valid) => [
        fc.constant<Case>({
          flaw: 'a delivery whose event is no longer kept',
          request: {
            ...valid,
            url: urlOf('/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
              id: String(world.webhookId),
              deliveryId: String(world.expiredDeliveryId),
            }),
          },
          status: 409,
          protocol: 'message',
        }),
      ],
    },
  };
}
