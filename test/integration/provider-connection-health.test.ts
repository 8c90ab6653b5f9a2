import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { processProviderWork, type WorkContext } from '#domain/enrollment.ts';
import { createOrganization } from '#domain/organizations.ts';
import { apiKeyContext, getProviderConnection } from '#domain/provider-connections.ts';
import { connectProvider } from '#domain/provider-keys.ts';
import { pacingBudgetOf } from '#domain/provider-pacing.ts';
import { pushContacts } from '#domain/raw-push.ts';
import { linkSequence } from '#domain/sequence-links.ts';
import { configuration, tableName, useConfiguration } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { lambdaHandler } from '#platform/observability.ts';
import { sealSecret } from '#platform/secrets.ts';
import type { Provider } from '#schemas/import.ts';
import { keys } from '#store/keys.ts';
import { startProviderEmulators } from '../../infra/local/provider-emulators/index.ts';
import { importFor } from '../support/import.ts';
import { metricRecordsOf } from '../support/observability.ts';
import { emulatorControl, fetchHttp } from '../support/provider-emulator-http.ts';
import { countRequests, type ObservedCall } from '../support/request-counter.ts';

/**
 * A connection's health kept by the calls of enrollment (docs/providers.md,
 * Connection health) against the emulators: a new connection is ok, a failing
 * provider or a refused key turns it failing with why, a later success turns
 * it ok, a lead's refusal is no failure of the connection, a burst of calls
 * costs at most one write a minute, and turning failing is counted once. And
 * Instantly's pacing by workspace: connections to one workspace, of any
 * organization, take their slots from one budget.
 */

type Emulators = Awaited<ReturnType<typeof startProviderEmulators>>;
let emulators: Emulators;
const CAMPAIGN = 940;
const SEQUENCE = 9401;

const control = (provider: Provider) => emulatorControl(() => emulators.urls[provider]);

beforeAll(async () => {
  emulators = await startProviderEmulators({ playback: 'manual' });
});
afterAll(async () => {
  await emulators?.stop();
});

/** The requests go through the session's pace (so the pacing items are taken) to the emulator. */
const context = (provider: Provider): WorkContext => ({
  deadline: Date.now() + 60_000,
  httpFor: (_connection, pace) => {
    const http = fetchHttp(emulators.urls[provider]);
    return async (request) => {
      await pace();
      return http(request);
    };
  },
});

/** An organization with one Instantly (or other) sequence linked to a campaign at the emulator's workspace of `apiKey`. */
async function organizationAt(provider: Provider, apiKey: string, name: string) {
  const { orgId } = await createOrganization(name);
  await importFor(orgId, {
    campaigns: [
      {
        id: CAMPAIGN,
        name: 'Health',
        sequences: [
          {
            id: SEQUENCE,
            provider,
            channel: 'email',
            steps: [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hello' }] }],
          },
        ],
      },
    ],
  });
  const connection = await connectProvider(
    orgId,
    { provider, apiKey, baseUrl: emulators.urls[provider] },
    { policy: { allowLoopback: true } },
  );
  const externalId = (await control(provider)<{ id: string }>('POST', '/campaigns', { apiKey, name })).id;
  await linkSequence(orgId, {
    sequenceId: SEQUENCE,
    connectionId: connection.connectionId,
    provider,
    externalId,
  });
  let pushed = 0;
  /** Pushes `count` new contacts and carries out their enrollment (one queued message). */
  const enroll = async (count = 1, receiveCount = 1) => {
    const result = await pushContacts(
      orgId,
      CAMPAIGN,
      Array.from({ length: count }, () => ({
        email: `lead-${++pushed}@${name.toLowerCase().replace(/\W+/g, '-')}.example`,
        firstName: 'Lead',
        variables: new Map(),
      })),
      [],
      {
        skipIneligible: true,
        triggerIntake: true,
        sequenceId: SEQUENCE,
        bypassCooldownOtherSequences: false,
        bypassGlobalExcluded: false,
        takeoverUnapproved: false,
      },
    );
    return processProviderWork(
      { message: { kind: 'enroll', orgId, assignmentIds: result.assignmentIds }, receiveCount },
      context(provider),
    );
  };
  return { orgId, connectionId: connection.connectionId, connection, enroll, emailOf: () => pushed };
}

const workspace = async (provider: Provider, body: Record<string, string> = {}) =>
  (await control(provider)<{ apiKey: string }>('POST', '/workspaces', body)).apiKey;

/** The connection's writes of its own item among the observed calls (its health, here). */
const connectionWrites = (calls: ObservedCall[], orgId: number, connectionId: number) =>
  calls.filter(
    (call) =>
      call.operation === 'UpdateItem' &&
      call.succeeded &&
      JSON.stringify(call.input.Key) === JSON.stringify(keys.providerConnection(orgId, connectionId)),
  );

/** Moves the last health write back past the minute, as if a minute had gone by. */
const aMinuteLater = (orgId: number, connectionId: number) =>
  dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.providerConnection(orgId, connectionId),
      UpdateExpression: 'SET healthWrittenAt = :then',
      ExpressionAttributeValues: { ':then': new Date(Date.now() - 61_000).toISOString() },
    }),
  );

describe('connection health', () => {
  it('starts ok, with the verification as its last success and no error', async () => {
    const before = new Date().toISOString();
    const { orgId, connectionId } = await organizationAt(
      'instantly',
      await workspace('instantly'),
      'Starts Ok',
    );
    const record = await getProviderConnection(orgId, connectionId);
    expect(record).toMatchObject({ status: 'ok', lastError: null });
    expect(record.lastSuccessAt! >= before).toBe(true);
    expect(record.healthWrittenAt).toBe(record.lastSuccessAt);
  });

  it('turns failing on a provider that fails, with why, and ok again on the next success', async () => {
    const apiKey = await workspace('instantly');
    const { orgId, connectionId, enroll } = await organizationAt('instantly', apiKey, 'Fails Then Recovers');
    await control('instantly')('POST', '/faults', { apiKey, kind: 'server-error', count: 1 });

    expect(await enroll()).toEqual({ kind: 'retry' });
    const failing = await getProviderConnection(orgId, connectionId);
    expect(failing.status).toBe('failing');
    expect(failing.lastError).toEqual({ message: 'Instantly failed (HTTP 500)', at: expect.any(String) });

    expect(await enroll()).toEqual({ kind: 'done' });
    const recovered = await getProviderConnection(orgId, connectionId);
    expect(recovered.status).toBe('ok');
    expect(recovered.lastSuccessAt! > failing.lastError!.at).toBe(true);
    // The last error stays, with its time: what happened, for whoever looks later.
    expect(recovered.lastError).toEqual(failing.lastError);
  });

  it('turns failing when the provider refuses the stored key, naming neither the key nor a lead', async () => {
    const apiKey = await workspace('instantly');
    const { orgId, connectionId, enroll } = await organizationAt('instantly', apiKey, 'Key Revoked');
    const revoked = 'revoked-instantly-key-1234';
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.providerConnection(orgId, connectionId),
        UpdateExpression: 'SET apiKey = :sealed',
        ExpressionAttributeValues: {
          ':sealed': await sealSecret(revoked, apiKeyContext(orgId, connectionId)),
        },
      }),
    );
    expect(await enroll()).toEqual({ kind: 'done' });
    const record = await getProviderConnection(orgId, connectionId);
    expect(record.status).toBe('failing');
    expect(record.lastError?.message).toBe('Instantly refused this API key (401)');
    expect(JSON.stringify(record.lastError)).not.toMatch(/revoked-instantly|@/);
  });

  it('stays ok when the provider refuses a lead (not the connection)', async () => {
    const apiKey = await workspace('instantly');
    const { orgId, connectionId, enroll, emailOf } = await organizationAt(
      'instantly',
      apiKey,
      'Lead Refused',
    );
    await aMinuteLater(orgId, connectionId);
    await control('instantly')('POST', '/blocklist', {
      apiKey,
      email: `lead-${emailOf() + 1}@lead-refused.example`,
      list: 'blocked',
    });
    expect(await enroll()).toEqual({ kind: 'done' });
    const record = await getProviderConnection(orgId, connectionId);
    expect(record).toMatchObject({ status: 'ok', lastError: null });
  });

  it('writes at most once a minute while the status holds, and at once when it changes', async () => {
    const apiKey = await workspace('instantly');
    const { orgId, connectionId, enroll } = await organizationAt('instantly', apiKey, 'Burst Of Calls');
    const writesOf = async (work: () => Promise<unknown>) =>
      connectionWrites((await countRequests(work)).calls, orgId, connectionId).length;

    // Just verified: a burst of successes writes nothing.
    expect(
      await writesOf(async () => {
        for (let each = 0; each < 4; each++) await enroll();
      }),
    ).toBe(0);
    // A minute on, the burst writes once (the last success moves on), however many calls.
    await aMinuteLater(orgId, connectionId);
    const before = (await getProviderConnection(orgId, connectionId)).lastSuccessAt!;
    expect(
      await writesOf(async () => {
        for (let each = 0; each < 4; each++) await enroll();
      }),
    ).toBe(1);
    expect((await getProviderConnection(orgId, connectionId)).lastSuccessAt! > before).toBe(true);
    // A failure changes the status: written at once; the failures after it within the minute are not.
    await control('instantly')('POST', '/faults', { apiKey, kind: 'server-error', count: 3 });
    expect(
      await writesOf(async () => {
        for (let each = 0; each < 3; each++) expect(await enroll()).toEqual({ kind: 'retry' });
      }),
    ).toBe(1);
    expect((await getProviderConnection(orgId, connectionId)).status).toBe('failing');
  });
});

describe('the ProviderConnectionFailing metric', () => {
  const installed = configuration();
  afterEach(() => {
    useConfiguration(installed);
    vi.restoreAllMocks();
  });

  /** The embedded-metric records the invocation wrote. */
  const metricsOf = (fn: () => Promise<unknown>) =>
    metricRecordsOf(() => lambdaHandler(async (_event: undefined) => fn())(undefined));

  it('counts a connection turning failing once, not each failure after', async () => {
    const apiKey = await workspace('instantly');
    const { orgId, connectionId, enroll } = await organizationAt('instantly', apiKey, 'Counted Once');
    await control('instantly')('POST', '/faults', { apiKey, kind: 'server-error', count: 2 });
    const [turned] = await metricsOf(() => enroll());
    expect(turned).toMatchObject({ ProviderConnectionFailing: 1 });
    // Still failing a minute later: written again, not counted again.
    await aMinuteLater(orgId, connectionId);
    const again = await metricsOf(() => enroll());
    expect(again.map((each) => each.ProviderConnectionFailing)).toEqual(again.map(() => undefined));
  });
});

describe('Instantly pacing by workspace', () => {
  /** The pacing items the work took slots from. */
  const pacingKeysOf = (calls: ObservedCall[]) => [
    ...new Set(
      calls
        .filter(
          (call) =>
            call.operation === 'UpdateItem' &&
            String((call.input.Key as { pk: string }).pk).endsWith('#PACING'),
        )
        .map((call) => (call.input.Key as { pk: string }).pk),
    ),
  ];

  it('gives connections to one workspace, of two organizations, one budget; another workspace its own', async () => {
    const first = await workspace('instantly');
    const sameWorkspace = await workspace('instantly', { sameWorkspaceAs: first });
    const other = await workspace('instantly');
    const a = await organizationAt('instantly', first, 'Workspace Agency A');
    const b = await organizationAt('instantly', sameWorkspace, 'Workspace Agency B');
    const c = await organizationAt('instantly', other, 'Workspace Agency C');
    expect(a.connection.workspaceId).toEqual(expect.any(String));
    expect(b.connection.workspaceId).toBe(a.connection.workspaceId);
    expect(c.connection.workspaceId).not.toBe(a.connection.workspaceId);
    expect(pacingBudgetOf(b.connection)).toEqual(pacingBudgetOf(a.connection));

    const ofA = pacingKeysOf((await countRequests(() => a.enroll())).calls);
    const ofB = pacingKeysOf((await countRequests(() => b.enroll())).calls);
    const ofC = pacingKeysOf((await countRequests(() => c.enroll())).calls);
    expect(ofA).toHaveLength(1);
    expect(ofA[0]).toMatch(/^PROVIDER#instantly#WORKSPACE#.+#PACING$/);
    expect(ofA[0]).toContain(a.connection.workspaceId);
    expect(ofB).toEqual(ofA);
    expect(ofC).toHaveLength(1);
    expect(ofC).not.toEqual(ofA);

    // One item holds both organizations' slots: none of either connection's own.
    const item = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: { pk: ofA[0], sk: 'PACING' } }),
    );
    expect(item.Item?.nextSlot).toEqual(expect.any(Number));
    for (const { orgId, connectionId } of [a, b]) {
      const own = await dynamo.send(
        new GetCommand({ TableName: tableName(), Key: keys.providerRequestPacing(orgId, connectionId) }),
      );
      expect(own.Item).toBeUndefined();
    }
  });

  it('keeps a connection without a workspace (Smartlead) on a budget of its own', async () => {
    const smartlead = await organizationAt('smartlead', await workspace('smartlead'), 'Own Budget');
    expect(smartlead.connection.workspaceId).toBeUndefined();
    const taken = pacingKeysOf((await countRequests(() => smartlead.enroll())).calls);
    expect(taken).toEqual([keys.providerRequestPacing(smartlead.orgId, smartlead.connectionId).pk]);
  });
});
