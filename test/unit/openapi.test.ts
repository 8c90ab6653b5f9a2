import { readFileSync } from 'node:fs';
import { Document, type ISpectralDiagnostic, Spectral } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { API_LICENSE, API_VERSION, type OpenApiDocument, openApiDocument } from '#api/openapi/document.ts';
import { DEPLOYMENT_SERVER_DESCRIPTION, withServer } from '#api/openapi/servers.ts';
import { type RouteDefinition, routes } from '#definitions/routes.ts';
import { DOMAIN_PATTERN } from '#schemas/params.ts';
import { WEBHOOK_EVENT_TYPES } from '#schemas/webhooks.ts';
import { committedOpenApiDocument, OPENAPI_FILE } from '../../infra/build-docs.ts';

/** The OpenAPI document: generated from the manifest and the zod schemas, lint-clean, and committed fresh. */

/** Spectral's OpenAPI ruleset (`spectral:oas`, recommended), plus descriptions of every parameter and tag and one tag per operation. */
async function lint(candidate: unknown): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as never, 'recommended']],
    rules: {
      'oas3-parameter-description': 'error',
      'tag-description': 'error',
      'operation-singular-tag': 'error',
    },
  });
  const findings: ISpectralDiagnostic[] = await spectral.run(
    new Document(JSON.stringify(candidate, null, 2), spectralParsers.Json, 'openapi.json'),
  );
  return findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
}

const document = openApiDocument('https://api.example.com/dev');
type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, unknown>;
  security: unknown[];
  deprecated?: boolean;
};
const operation = (path: string, method: string) => document.paths[path]?.[method] as Operation;
const parameter = (path: string, method: string, name: string) =>
  operation(path, method).parameters?.find((candidate) => candidate.name === name);

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 at interface version 1.0.0, naming the server it is generated for', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe('1.0.0');
    expect(document.servers).toEqual([
      { url: 'https://api.example.com/dev', description: 'This deployment' },
    ]);
    // package.json names no license: the private package's code is proprietary.
    expect(document.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    expect(API_LICENSE.identifier).toMatch(/^LicenseRef-[A-Za-z0-9.-]+$/);
  });

  it('gives every operation, of paths and of webhooks, an operationId of its own', () => {
    const ids = [
      ...Object.values(document.paths).flatMap((item) => Object.values(item)),
      ...Object.values(document.webhooks).map((item) => item.post),
    ].map((candidate) => candidate.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation('/public/v1/webhooks/{id}/test', 'post')).toMatchObject({ operationId: 'testWebhook' });
    expect(Object.values(document.webhooks).map((item) => item.post.operationId)).toEqual([
      'newOpportunitiesWebhook',
      'firstTouchWebhook',
      'positiveReplyWebhook',
      'testWebhookPayload',
    ]);
  });

  it('refuses two operations with one operationId', () => {
    const auth = routes.find((route) => route.name === 'auth')!;
    expect(() =>
      openApiDocument('http://localhost', {
        manifest: [...routes, { ...auth, path: '/public/v1/auth-again' }],
      }),
    ).toThrow('operationId auth of get /public/v1/auth-again is also get /public/v1/auth’s');
  });

  it('describes request bodies as a client sends them: defaulted fields optional, in components.requestBodies', () => {
    const push = '/public/v1/campaigns/{id}/raw/contacts';
    expect(document.paths[push]?.post?.requestBody).toEqual({
      $ref: '#/components/requestBodies/PushRawContactsRequest',
    });
    const body = document.components.requestBodies.PushRawContactsRequest as {
      required: boolean;
      content: { 'application/json': { schema: Record<string, unknown> } };
    };
    expect(body.required).toBe(true);
    const schema = body.content['application/json'].schema as {
      properties: Record<string, { default?: unknown; items?: { title?: string; required?: string[] } }>;
      required: string[];
    };
    expect(schema.required).toEqual(['contacts']);
    for (const flag of ['bypassCooldownOtherSequences', 'bypassGlobalExcluded', 'takeoverUnapproved'])
      expect(schema.properties[flag]).toEqual({ type: 'boolean', default: false });
    // The contact is inline (its `variables` default to {}), still titled RawContact.
    expect(schema.properties.contacts?.items).toMatchObject({ title: 'RawContact', required: ['email'] });
    // Request bodies are no schemas: generators read a schema's `default` as a value always present.
    for (const name of Object.keys(document.components.requestBodies))
      expect(document.components.schemas[name], name).toBeUndefined();
  });

  it('gives emails and URLs their format where the service checks or builds them', () => {
    const schemaOf = (name: string) =>
      (
        document.components.requestBodies[name] as {
          content: {
            'application/json': { schema: { properties: Record<string, Record<string, unknown>> } };
          };
        }
      ).content['application/json'].schema.properties;
    expect(schemaOf('CheckEligibilityRequest').emails?.items).toMatchObject({ format: 'email' });
    expect(schemaOf('PushRawContactsRequest').contacts).toMatchObject({
      items: { properties: { email: { type: 'string', format: 'email' } } },
    });
    expect(schemaOf('CreateWebhookRequest').url).toMatchObject({ format: 'uri' });
    expect(schemaOf('UpdateWebhookRequest').url).toMatchObject({ format: 'uri' });
    expect(schemaOf('CreateProviderConnectionRequest').base_url).toMatchObject({
      anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
    });
    const connection = document.components.schemas.ProviderConnectionWithWebhookUrl as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(connection.properties.webhook_url).toMatchObject({ type: 'string', format: 'uri' });
    // A subscription shows its URL as WHATWG URL serializes it, not always an RFC 3986 URI; a
    // contact's email is shown as stored: no format is promised for either.
    const subscription = document.components.schemas.WebhookSubscription as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(subscription.properties.url).toMatchObject({ type: 'string' });
    expect(subscription.properties.url).not.toHaveProperty('format');
    // A reply's recipients are a list of addresses, a company's URL must hold a usable domain.
    expect(schemaOf('ReplyToAssignmentRequest').to).toMatchObject({
      type: 'string',
      pattern: expect.stringContaining('@'),
      examples: ['ada@acme.com'],
    });
    expect(schemaOf('ExcludeAccountRequest').company_url).toMatchObject({
      type: 'string',
      pattern: DOMAIN_PATTERN,
      description: expect.stringContaining('at least two labels, not an IP address'),
    });
    expect(parameter('/public/v1/jobs/{domain}', 'get', 'domain')?.schema).toMatchObject({
      pattern: DOMAIN_PATTERN,
    });
  });

  it('has an operation for every route of the manifest, with the route’s authentication', () => {
    for (const route of routes) {
      const documented = Object.entries(document.paths[route.path] ?? {});
      const method =
        route.method !== 'ANY'
          ? route.method.toLowerCase()
          : route.name.startsWith('dashboard')
            ? 'get'
            : 'post';
      const found = documented.find(([candidate]) => candidate === method)?.[1] as Operation | undefined;
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      if (route.auth === 'apiKey') expect(found?.security).toEqual([{ apiKey: [] }]);
      else expect(found?.security).not.toContainEqual({ apiKey: [] });
    }
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
    // The dashboard's three `ANY` routes document their forms' POST beside their GET.
    const withForms = routes.filter((route) => route.name.startsWith('dashboard'));
    expect(withForms).toHaveLength(3);
    for (const route of withForms)
      expect(Object.keys(document.paths[route.path]!).sort()).toEqual(['get', 'post']);
    expect(operations).toHaveLength(routes.length + withForms.length);
  });

  it('refuses a route that has no description', () => {
    const undescribed: RouteDefinition = {
      name: 'undescribed',
      method: 'GET',
      path: '/public/v1/undescribed',
      auth: 'apiKey',
      table: [],
    };
    expect(() => openApiDocument('http://localhost', { manifest: [...routes, undescribed] })).toThrow(
      'Route undescribed has no OpenAPI description',
    );
  });

  it('carries the defaults and bounds of the zod schemas into parameters', () => {
    const accounts = '/public/v1/campaigns/{id}/accounts';
    expect(parameter(accounts, 'get', 'id')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(parameter(accounts, 'get', 'from')?.schema).toMatchObject({
      type: 'integer',
      minimum: 0,
      default: 0,
    });
    expect(parameter(accounts, 'get', 'take')?.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 25,
      examples: [25],
    });
    const contacts = '/public/v1/campaigns/{id}/contacts';
    expect(parameter(contacts, 'get', 'skip')?.schema).toMatchObject({ default: 0, minimum: 0 });
    expect(parameter(contacts, 'get', 'take')?.schema).toMatchObject({ default: 25, maximum: 100 });
    expect(parameter(contacts, 'get', 'status')).toMatchObject({
      required: false,
      schema: { enum: ['scheduled', 'in-progress', 'completed', 'replied', 'bounced', 'unsubscribed'] },
    });
    const jobs = '/public/v1/jobs/{domain}';
    expect(parameter(jobs, 'get', 'take')?.schema).toMatchObject({ default: 100, minimum: 1, maximum: 500 });
    expect(parameter(jobs, 'get', 'since')?.schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(parameter(jobs, 'get', 'domain')).toMatchObject({ required: true, schema: { type: 'string' } });
  });

  it('documents the gateway’s 404 on every operation whose path has parameters and no 404 of its own', () => {
    const noRoute = { $ref: '#/components/responses/NoRoute' };
    expect(operation('/public/v1/jobs/{domain}', 'get').responses['404']).toEqual(noRoute);
    expect(
      operation('/provider-webhooks/{organization}/{connection}/{token}', 'post').responses['404'],
    ).toEqual(noRoute);
    expect(operation('/public/v1/campaigns/{id}', 'get').responses['404']).not.toEqual(noRoute);
    expect(operation('/public/v1/campaigns', 'get').responses).not.toHaveProperty('404');
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, candidate] of Object.entries(item))
        if (path.includes('{'))
          expect({ path, method, statuses: Object.keys((candidate as Operation).responses) }).toMatchObject({
            statuses: expect.arrayContaining(['404']),
          });
  });

  it('lists every error status with the {message} schema, the gateway’s included', () => {
    const error = { $ref: '#/components/schemas/Error' };
    const detail = operation('/public/v1/campaigns/{id}', 'get').responses;
    // A GET answers 304 to a matching If-None-Match (#api/http/conventions.ts).
    expect(Object.keys(detail)).toEqual(['200', '304', '400', '401', '404', '429', '500', '502']);
    expect(detail['404']).toMatchObject({ content: { 'application/json': { schema: error } } });
    const push = operation('/public/v1/campaigns/{id}/raw/contacts', 'post').responses;
    expect(Object.keys(push)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '422',
      '429',
      '500',
      '502',
    ]);
    for (const name of [
      'Unauthorized',
      'Forbidden',
      'PayloadTooLarge',
      'TooManyRequests',
      'InternalServerError',
      'BadGateway',
    ]) {
      expect(document.components.responses[name]).toMatchObject({
        content: { 'application/json': { schema: error } },
      });
    }
    expect(document.components.responses.TooManyRequests).toMatchObject({
      headers: { 'Retry-After': { required: true } },
    });
  });

  it('shows the Idempotency-Key header, the replay header and the key’s 409 and 422 on every unsafe operation', () => {
    const unsafe = routes.filter(
      (route) => route.auth === 'apiKey' && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method),
    );
    expect(unsafe.map((route) => route.name)).toContain('reply-to-assignment');
    for (const route of routes.filter((candidate) => candidate.auth === 'apiKey')) {
      const method = route.method.toLowerCase();
      const described = operation(route.path, method);
      const key = parameter(route.path, method, 'Idempotency-Key');
      const ok = described.responses[200] as { headers?: Record<string, unknown> };
      const where = `${route.method} ${route.path}`;
      if (!unsafe.includes(route)) {
        expect(key, where).toBeUndefined();
        expect(ok.headers?.['Idempotent-Replayed'], where).toBeUndefined();
        continue;
      }
      expect(key, where).toMatchObject({
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
      expect(ok.headers?.['Idempotent-Replayed'], where).toMatchObject({ schema: { enum: ['true'] } });
      const description = (status: number) =>
        (described.responses[status] as { description?: string } | undefined)?.description ?? '';
      expect(description(400), where).toContain('Idempotency-Key');
      expect(description(409), where).toContain('still in progress');
      expect(description(422), where).toContain('used with a different request');
    }
  });

  it('marks icp_id deprecated', () => {
    const summary = document.components.schemas.CampaignSummary as {
      properties: Record<string, { deprecated?: boolean }>;
    };
    expect(summary.properties.icp_id?.deprecated).toBe(true);
    expect(summary.properties.id?.deprecated).toBeUndefined();
  });

  it('describes the x-api-key scheme, the MCP OAuth endpoints and the webhook payloads', () => {
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
    for (const path of ['/oauth/token', '/oauth/authorize', '/.well-known/oauth-authorization-server']) {
      expect(Object.values(document.paths[path] ?? {}).length).toBeGreaterThan(0);
    }
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES, 'test']);
  });

  it('has schemas that compile as JSON Schema 2020-12 and accept what the handlers send', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/CampaignDetail' });
    const campaign = {
      id: 1,
      provider: null,
      providers: [],
      sequence_ids: [],
      icp_id: 1,
      icp_name: 'x',
      created_at: null,
      steps_count: 0,
      stats: { sent: 0, opened: 0, clicked: 0, bounced: 0, unsubscribed: 0, blocked: 0 },
      contacts: { pending_approval: 0, scheduled: 0, in_progress: 0, completed: 0, replied: 0 },
    };
    expect(validate(campaign)).toBe(true);
    expect(validate({ ...campaign, icp_id: 'one' })).toBe(false);
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }), name).not.toThrow();
    }
    for (const name of Object.keys(document.components.requestBodies)) {
      const pointer = `openapi#/components/requestBodies/${name}/content/application~1json/schema`;
      expect(() => ajv.compile({ $ref: pointer }), name).not.toThrow();
    }
  });

  it('passes Spectral’s OpenAPI ruleset without a finding', async () => {
    expect(await lint(document)).toEqual([]);
  });

  it('would fail the lint without an operation description or with an undefined tag', async () => {
    const broken = structuredClone(document);
    const operation = broken.paths['/public/v1/auth']!.get!;
    delete operation.description;
    operation.tags = ['Undefined'];
    expect(await lint(broken)).toEqual([
      expect.stringMatching(/^operation-description at paths\.\/public\/v1\/auth\.get:/),
      expect.stringMatching(/^operation-tag-defined at paths\.\/public\/v1\/auth\.get\.tags\.0:/),
    ]);
  });
});

describe('docs/openapi.json', () => {
  it('equals a fresh generation (run `npm run build` after changing routes or schemas)', () => {
    const committed: unknown = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    expect(committed).toStrictEqual(JSON.parse(JSON.stringify(committedOpenApiDocument())));
  });

  it('is what a deployment serves once its own URL is put in, byte for byte (GET /openapi.json)', () => {
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
    const served = withServer(committed, 'https://api.example.com/dev', DEPLOYMENT_SERVER_DESCRIPTION);
    expect(JSON.stringify(served)).toBe(JSON.stringify(openApiDocument('https://api.example.com/dev')));
  });
});
