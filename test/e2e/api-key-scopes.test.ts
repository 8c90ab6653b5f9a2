import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { routes } from '#definitions/routes.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';
import { providerWebhookOf, type RequestTarget, validRequest } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { type ApiClient, apiClient, send } from '../support/api-client.ts';
import { type AdminRun, admin as adminInProcess } from '../support/cli.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { problemBody } from '../support/problem.ts';
import { emulatedConnection, linkedEmulatorCampaign } from '../support/provider-workspace.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { expectNoWriteCredential } from '../support/write-credentials.ts';

/**
 * API key scopes over HTTP against the local stack: keys are created the way
 * an operator creates them (`outreach-admin key create`, in process), a read
 * key reads every route of the manifest that reads (as a read-write key does,
 * less the write credentials it never gets: docs/decisions.md) and is refused
 * every route that writes (403 `{message}`, nothing written), a read-write key
 * writes, and an expired key is refused like a revoked one (401).
 */

let stack: LocalStack;
let receiver: WebhookReceiver;
const localDir = mkdtempSync(join(tmpdir(), 'api-key-scopes-'));
let orgId: number;
let readWrite: ApiClient;
let readOnly: ApiClient;
let readKey: string;
let readWriteKey: string;

const REFUSED = {
  status: 403,
  body: problemBody(403, READ_ONLY_KEY_MESSAGE, { errors: [] }),
};
/** Every route of the public API, from the manifest: a route added there is in this matrix. */
const API_ROUTES = routes.filter((route) => route.path.startsWith('/public/v1/'));
const WRITE_ROUTES = API_ROUTES.filter((route) => route.auth === 'apiKey' && route.scope === 'read-write');
const READ_ROUTES = API_ROUTES.filter((route) => route.auth === 'apiKey' && route.scope === 'read');

/**
 * An answer as a read key gets it: without the fields that are a write credential, which only a
 * read-write key is answered (a provider connection's `webhook_url`; docs/decisions.md).
 */
function withheld(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withheld);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== 'webhook_url')
      .map(([name, field]) => [name, withheld(field)]),
  );
}

function admin(...args: string[]): Promise<AdminRun> {
  return adminInProcess(localDir, args);
}

interface CreatedKey {
  keyId: number;
  apiKey: string;
  scope: string;
  name: string | null;
  createdAt: string;
  expiresAt: string | null;
}

async function createKey(...flags: string[]): Promise<CreatedKey> {
  const run = await admin('key', 'create', '--org', String(orgId), ...flags, '--json');
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as CreatedKey;
}

/** A raw push of one new contact into the fixture's campaign 101. */
const push = (email: string) => ({
  contacts: [{ email, firstName: 'New', variables: { opener: 'Hi' } }],
  sequenceId: 201,
  triggerIntake: false,
});

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Scopes Inc'));
  await importFor(orgId, smallDocument());
  readWriteKey = (await createKey()).apiKey;
  readWrite = apiClient(stack, readWriteKey);
  readKey = (await createKey('--scope', 'read', '--name', 'Read-only reports')).apiKey;
  readOnly = apiClient(stack, readKey);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('a read key', () => {
  it('reads: 200 on the auth check, the campaigns and the eligibility dry run (a POST that writes nothing)', async () => {
    expect(await readOnly.get('/auth')).toEqual({ status: 200, body: { signed_in: true } });
    const campaigns = await readOnly.get('/campaigns');
    expect(campaigns.status).toBe(200);
    expect(campaigns.body).toEqual((await readWrite.get('/campaigns')).body);
    const check = await readOnly.post('/campaigns/101/raw/contacts/check-eligibility', {
      emails: ['fresh@fresh-example.com'],
      sequenceId: 201,
    });
    expect(check.status).toBe(200);
    expect(check.body.summary).toBeDefined();
  });

  it('is refused a raw push, a webhook subscription and an account exclusion with 403 {message}', async () => {
    expect(await readOnly.post('/campaigns/101/raw/contacts', push('read.only@fresh-example.com'))).toEqual(
      REFUSED,
    );
    expect(
      await readOnly.post('/webhooks', { url: `${receiver.url}/ok/read`, events: ['first_touch'] }),
    ).toEqual(REFUSED);
    expect(await readOnly.post('/accounts/exclude', { company_url: 'https://fresh-example.com' })).toEqual(
      REFUSED,
    );
    // Refused before validation: a read key learns it cannot write whatever it sent.
    expect(await readOnly.post('/campaigns/101/raw/contacts', '{"contacts":')).toEqual(REFUSED);

    expect((await readWrite.get('/webhooks')).body).toEqual({ webhooks: [] });
    const contacts = await readWrite.get('/campaigns/101/contacts?take=100');
    expect(JSON.stringify(contacts.body)).not.toContain('read.only@fresh-example.com');
    const verdict = await readWrite.post('/campaigns/101/raw/contacts/check-eligibility', {
      emails: ['someone@fresh-example.com'],
      sequenceId: 201,
    });
    expect(verdict.body.results[0].reasons).not.toContain('globally_excluded');
  });
});

describe('a read-write key', () => {
  it('pushes, as keys created without a scope always could', async () => {
    const pushed = await readWrite.post('/campaigns/101/raw/contacts', push('writer@fresh-example.com'));
    expect(pushed.status).toBe(200);
    expect(pushed.body.created).toBe(1);
  });
});

describe('every /public/v1 route of the manifest', () => {
  let target: RequestTarget;
  /** The organization's write credentials the setup made: none is ever answered to the read key. */
  let secrets: string[];
  let connectionUrl: string;
  /** What the organization's resources look like to a read-write key. */
  const snapshot = async () => {
    const reads = [
      '/webhooks',
      `/webhooks/${target.webhookId}`,
      `/webhooks/${target.webhookId}/deliveries`,
      '/provider-connections',
      `/provider-connections/${target.providerConnectionId}`,
      '/sequences/201/provider-link',
      '/campaigns/101',
      '/campaigns/101/contacts?take=100',
      '/campaigns/101/messages?take=100',
      '/campaigns/101/accounts?take=100',
      '/analytics/overview',
    ];
    const answers = await Promise.all(reads.map((path) => readWrite.get(path)));
    const eligibility = await readWrite.post('/campaigns/101/raw/contacts/check-eligibility', {
      emails: ['someone@example.org', 'new.contact@fresh-example.com'],
      sequenceId: 201,
    });
    return [...answers, eligibility].map(({ status, body }) => ({ status, body }));
  };

  beforeAll(async () => {
    // Something for each write route to act on, made with the read-write key.
    const webhook = await readWrite.post('/webhooks', {
      url: `${receiver.url}/ok/scopes`,
      events: ['first_touch'],
    });
    const test = await readWrite.post(`/webhooks/${webhook.body.id}/test`);
    await receiver.arrivals('/ok/scopes', 1);
    await waitFor(async () => {
      const log = await readWrite.get(`/webhooks/${webhook.body.id}/deliveries`);
      expect(log.body.data[0].status).toBe('delivered');
    });
    const account = await emulatedConnection(stack, 'smartlead', 'scopes-key');
    const connection = await readWrite.post('/provider-connections', account);
    expect(connection.status).toBe(200);
    connectionUrl = connection.body.webhook_url;
    secrets = [
      webhook.body.secret,
      providerWebhookOf(connectionUrl).token,
      'scopes-key',
      readWriteKey.split('.')[1]!,
    ];
    target = {
      apiUrl: stack.apiUrl,
      apiKey: readKey,
      campaignId: 101,
      sequenceId: 201,
      assignmentId: 501,
      accountId: 301,
      accountDomain: 'acme.com',
      jobDomain: 'acme.com',
      webhookId: webhook.body.id,
      deliveryId: test.body.delivery.id,
      webhookUrl: `${receiver.url}/ok/updated`,
      providerConnectionId: connection.body.id,
      providerCampaignId: await linkedEmulatorCampaign(stack, {
        orgId,
        provider: 'smartlead',
        apiKey: account.api_key,
        connectionId: connection.body.id,
        sequenceId: 201,
      }),
      providerAccount: { provider: 'smartlead', baseUrl: account.base_url, apiKey: account.api_key },
      providerWebhook: providerWebhookOf(connection.body.webhook_url),
      // Only the API-key routes are sent: the OAuth credentials are never used.
      oauth: {
        clientId: 'unused',
        clientSecret: 'unused',
        redirectUri: 'https://unused.example',
        accessToken: '',
      },
      docsAsset: REFERENCE_ASSETS[0]!,
      member: { cookie: 'unused', csrfToken: 'unused' },
    };
  });

  it('takes an API key on each of them, of the scope the manifest names', () => {
    expect(API_ROUTES.filter((route) => route.auth !== 'apiKey').map((route) => route.name)).toEqual([]);
    expect(READ_ROUTES.length + WRITE_ROUTES.length).toBe(API_ROUTES.length);
  });

  it('answers a read key every route that reads as a read-write key, less the write credentials', async () => {
    const writer = { ...target, apiKey: readWriteKey };
    for (const route of READ_ROUTES) {
      const request = validRequest(route.name, target);
      const where = `${request.method} ${request.url}`;
      const read = await send(stack.apiUrl, request);
      expect(read.status, `${where} → ${read.text.slice(0, 300)}`).toBe(request.status);
      expectNoWriteCredential(read.text, where, secrets);
      const written = await send(stack.apiUrl, validRequest(route.name, writer));
      expect(JSON.parse(read.text), where).toEqual(withheld(JSON.parse(written.text)));
    }
  });

  it('answers a read-write key the provider connection’s webhook URL, which a read key does not get', async () => {
    const path = `/provider-connections/${target.providerConnectionId}`;
    expect((await readWrite.get(path)).body.webhook_url).toBe(connectionUrl);
    expect((await readWrite.get('/provider-connections')).body.connections).toContainEqual(
      expect.objectContaining({ webhook_url: connectionUrl }),
    );
    const read = await readOnly.get(path);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('webhook_url');
    expect(read.body).toEqual(withheld((await readWrite.get(path)).body));
  });

  // Which routes write is held to the manifest by test/unit/api-key-scopes.test.ts.
  it('answers the catalogue’s valid request with 403 {message} for a read key, and nothing is written', async () => {
    const before = await snapshot();
    for (const route of WRITE_ROUTES) {
      const request = validRequest(route.name, target);
      const answer = await send(stack.apiUrl, request);
      expect(
        { status: answer.status, body: JSON.parse(answer.text) as unknown },
        `${request.method} ${request.url}`,
      ).toEqual(REFUSED);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers the same requests for a read-write key (the catalogue’s status)', async () => {
    // The ones that end what the others name go last.
    const last = ['rotate-provider-webhook-url', 'delete-provider-connection', 'delete-webhook'];
    const ordered = [...WRITE_ROUTES].sort((a, b) => last.indexOf(a.name) - last.indexOf(b.name));
    const writer = { ...target, apiKey: (await createKey('--scope', 'read-write')).apiKey };
    for (const route of ordered) {
      const request = validRequest(route.name, writer);
      const answer = await send(stack.apiUrl, request);
      expect(answer.status, `${request.method} ${request.url} → ${answer.text.slice(0, 300)}`).toBe(
        request.status,
      );
    }
  });

  it('answers a read key 403 even with the Idempotency-Key a read-write key used: no stored answer is replayed', async () => {
    // A create's stored answer holds a write credential (a webhook secret, a provider webhook URL).
    const writer = { ...target, apiKey: (await createKey('--scope', 'read-write')).apiKey };
    const withKey = (request: ReturnType<typeof validRequest>, name: string) => ({
      ...request,
      headers: { ...request.headers, 'idempotency-key': `scopes-replay-${name}` },
    });
    for (const name of ['create-webhook', 'create-provider-connection', 'push-raw-contacts'] as const) {
      const first = await send(stack.apiUrl, withKey(validRequest(name, writer), name));
      expect(first.status, `${name} → ${first.text.slice(0, 300)}`).toBe(200);
      const again = await send(stack.apiUrl, withKey(validRequest(name, target), name));
      expect({ status: again.status, body: JSON.parse(again.text) as unknown }, name).toEqual(REFUSED);
    }
  });
});

describe('an expiring key', () => {
  const lookupKeyOf = (apiKey: string) =>
    keys.apiKeyLookup(createHash('sha256').update(apiKey.split('.')[1]!).digest('hex'));

  it('works until its expiry', async () => {
    const created = await createKey('--scope', 'read', '--expires-in-days', '1');
    const lifetime = Date.parse(created.expiresAt!) - Date.parse(created.createdAt);
    expect(lifetime).toBe(86_400_000);
    expect((await readOnly.as(created.apiKey).get('/auth')).status).toBe(200);
  });

  it('is 401 once expired, exactly like a revoked key', async () => {
    const expiring = await createKey('--expires-in-days', '1');
    // The CLI gives a key at least a day, so the test moves the stored expiry into the past, as time
    // would: it is all the authorizer reads of it. The key was never presented, so no authorizer
    // decision about it is cached.
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: lookupKeyOf(expiring.apiKey),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const revoked = await createKey();
    expect((await admin('key', 'revoke', '--org', String(orgId), '--key', String(revoked.keyId))).code).toBe(
      0,
    );

    // The same answer every time, but for its request id (each request has its own).
    const expiredAnswer = { status: 401, body: problemBody(401, 'Unauthorized') };
    expect(await readWrite.as(expiring.apiKey).get('/campaigns')).toEqual(expiredAnswer);
    expect(await readWrite.as(revoked.apiKey).get('/campaigns')).toEqual(expiredAnswer);
    expect(
      await readWrite.as(expiring.apiKey).post('/campaigns/101/raw/contacts', push('late@fresh-example.com')),
    ).toEqual(expiredAnswer);

    const { keys: listed } = JSON.parse(
      (await admin('key', 'list', '--org', String(orgId), '--json')).stdout,
    ) as {
      keys: CreatedKey[];
    };
    const { expiresAt } = listed.find((key) => key.keyId === expiring.keyId)!;
    expect((await admin('key', 'list', '--org', String(orgId))).stdout).toContain(
      `${expiring.keyId}\t${expiring.createdAt}\tnever\t-\tread-write\texpired ${expiresAt}\t-\n`,
    );
  });
});

describe('outreach-admin key', () => {
  it('creates a read-write key without a name or expiry by default, and prints it once', async () => {
    const run = await admin('key', 'create', '--org', String(orgId));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Created key (\d+) \(scope read-write, expires never\)\nAPI key \(shown once\): \d+\.[A-Za-z0-9_-]{43}\n$/,
    );
  });

  it('prints a created key’s scope, name and expiry, in text and as JSON', async () => {
    const text = await admin(
      'key',
      'create',
      '--org',
      String(orgId),
      '--scope',
      'read',
      '--name',
      '  Nightly export, EU  ',
      '--expires-in-days',
      '90',
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^Created key \d+ \(scope read, name "Nightly export, EU", expires \d{4}-\d\d-\d\dT[0-9:.]+Z\)\nAPI key \(shown once\): /,
    );

    const json = await createKey('--scope', 'read', '--name', 'Dashboard', '--expires-in-days', '3650');
    expect(Object.keys(json).sort()).toEqual(['apiKey', 'createdAt', 'expiresAt', 'keyId', 'name', 'scope']);
    expect(json).toMatchObject({ scope: 'read', name: 'Dashboard' });
    expect(Date.parse(json.expiresAt!) - Date.parse(json.createdAt)).toBe(3650 * 86_400_000);
  });

  it('lists each key’s scope, name and expiry next to its creation, last use and revocation', async () => {
    const { orgId: listedOrg } = await createOrganization('Listed keys');
    const forOrg = (...args: string[]) => admin('key', ...args, '--org', String(listedOrg));
    const plain = JSON.parse((await forOrg('create', '--json')).stdout) as CreatedKey;
    const named = JSON.parse(
      (await forOrg('create', '--scope', 'read', '--name', 'CI "main"', '--expires-in-days', '7', '--json'))
        .stdout,
    ) as CreatedKey;
    expect((await forOrg('revoke', '--key', String(plain.keyId))).code).toBe(0);

    const json = JSON.parse((await forOrg('list', '--json')).stdout) as { keys: Record<string, unknown>[] };
    expect(json.keys).toEqual([
      {
        keyId: plain.keyId,
        scope: 'read-write',
        name: null,
        createdAt: plain.createdAt,
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: expect.any(String),
      },
      {
        keyId: named.keyId,
        scope: 'read',
        name: 'CI "main"',
        createdAt: named.createdAt,
        expiresAt: named.expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    const revokedAt = json.keys[0]!.revokedAt as string;

    expect((await forOrg('list')).stdout.split('\n')).toEqual([
      'KEY\tCREATED\tLAST USED\tREVOKED\tSCOPE\tEXPIRES\tNAME',
      `${plain.keyId}\t${plain.createdAt}\tnever\t${revokedAt}\tread-write\tnever\t-`,
      `${named.keyId}\t${named.createdAt}\tnever\t-\tread\t${named.expiresAt}\t"CI \\"main\\""`,
      '',
    ]);
  });

  it.each([
    [['--scope', 'admin'], '--scope must be read or read-write'],
    [['--scope', ''], '--scope needs a value'],
    [['--expires-in-days', '0'], '--expires-in-days must be a whole number from 1 to 3650'],
    [['--expires-in-days', '3651'], '--expires-in-days must be a whole number from 1 to 3650'],
    [['--expires-in-days', '1.5'], '--expires-in-days must be a whole number from 1 to 3650'],
    [['--expires-in-days', 'soon'], '--expires-in-days must be a whole number from 1 to 3650'],
    [['--name', 'x'.repeat(101)], '--name must be 1-100 characters'],
    [['--name', '   '], '--name must be 1-100 characters'],
    [['--name', 'tab\there'], '--name must be printable: no tabs, line breaks or control characters'],
  ])('exits 2 on %j, naming the flag, and creates nothing', async (flags, message) => {
    const { orgId: untouched } = await createOrganization('Bad key flags');
    const run = await admin('key', 'create', '--org', String(untouched), ...flags);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(message);
    expect(run.stderr).toContain(
      'Usage: outreach-admin key create --org ID [--scope read|read-write] [--name NAME] [--expires-in-days DAYS]',
    );
    expect(JSON.parse((await admin('key', 'list', '--org', String(untouched), '--json')).stdout)).toEqual({
      keys: [],
    });
  });
});
