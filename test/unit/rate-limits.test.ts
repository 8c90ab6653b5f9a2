import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  GetUsagePlansCommand,
  UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arrangeRateLimit, provisionOrganizationRateLimit } from '#admin/rate-limits.ts';
import { organizationOfUsageIdentifierKey, usageIdentifierKeyOf } from '#definitions/rate-limits.ts';
import { SettingOutOfRange } from '#domain/errors.ts';
import { configuration, useConfiguration } from '#platform/config.ts';

/**
 * The usage-plan side of per-organization rate limits, against API Gateway's
 * API as the SDK sees it (no AWS account is reachable here): which calls are
 * made, in which order, and that every step can be repeated.
 */

const apiGateway = mockClient(APIGatewayClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const API = { restApiId: 'abc123defg', stage: 'prod', defaultUsagePlanId: 'default-plan' };
const KEY_NAME = 'outreach-abc123defg-org-7';
/** The local stack's configuration (no deployed API); each test runs against the deployed API unless it says so. */
const local = configuration();

const calls = () =>
  apiGateway.calls().map((call) => [call.args[0].constructor.name, call.args[0].input] as const);

beforeEach(() => {
  apiGateway.reset();
  dynamo.reset();
  dynamo.on(UpdateCommand).callsFake((input) => ({
    Attributes: {
      orgId: 7,
      name: 'Seven',
      createdAt: 'x',
      cooldownDays: 90,
      rateLimit: input.ExpressionAttributeValues?.[':value'],
    },
  }));
  useConfiguration({ ...local, admin: { ...local.admin, deployedApi: API } });
});
afterEach(() => {
  useConfiguration(local);
});

describe('usage identifier keys', () => {
  it('name the API and the organization, at least 20 characters, and parse back', () => {
    expect(usageIdentifierKeyOf('local', 1)).toBe('outreach-local-org-1');
    expect(usageIdentifierKeyOf('local', 1).length).toBeGreaterThanOrEqual(20);
    expect(organizationOfUsageIdentifierKey(KEY_NAME)).toBe(7);
    for (const other of ['outreach-abc-org-0', 'outreach-abc-org-x', 'org-7', 'outreach--org-7']) {
      expect(organizationOfUsageIdentifierKey(other)).toBeNull();
    }
  });
});

describe('provisioning an organization on a deployed stack', () => {
  it('creates its API Gateway key with the usage identifier as value and puts it in the default plan', async () => {
    apiGateway.on(GetApiKeysCommand).resolves({ items: [] });
    apiGateway.on(CreateApiKeyCommand).resolves({ id: 'key-7' });
    await provisionOrganizationRateLimit(7);
    expect(calls()).toEqual([
      ['GetApiKeysCommand', expect.objectContaining({ nameQuery: KEY_NAME })],
      ['CreateApiKeyCommand', expect.objectContaining({ name: KEY_NAME, value: KEY_NAME, enabled: true })],
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'default-plan', keyId: 'key-7', keyType: 'API_KEY' }],
    ]);
  });

  it('can be run again: an existing key is reused and "already in the plan" is success', async () => {
    apiGateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key-7', name: KEY_NAME }] });
    apiGateway
      .on(CreateUsagePlanKeyCommand)
      .rejects(new ConflictException({ message: 'already a member', $metadata: {} }));
    await provisionOrganizationRateLimit(7);
    expect(calls().map(([name]) => name)).toEqual(['GetApiKeysCommand', 'CreateUsagePlanKeyCommand']);
  });

  it('does nothing against the local stack, whose gateway reads the organization record', async () => {
    useConfiguration(local);
    await provisionOrganizationRateLimit(7);
    expect(calls()).toEqual([]);
  });
});

describe('arranging a rate limit', () => {
  beforeEach(() => {
    apiGateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'key-7', name: KEY_NAME }] });
  });

  it("records it, creates the organization's own plan on the stage and moves the key there from the default plan", async () => {
    apiGateway.on(GetUsagePlansCommand, { keyId: undefined }).resolves({ items: [{ id: 'default-plan' }] });
    apiGateway.on(GetUsagePlansCommand, { keyId: 'key-7' }).resolves({ items: [{ id: 'default-plan' }] });
    apiGateway.on(CreateUsagePlanCommand).resolves({ id: 'own-plan' });
    const organization = await arrangeRateLimit(7, { rateLimit: 2000, burstLimit: 4000 });
    expect(organization.rateLimit).toEqual({ rateLimit: 2000, burstLimit: 4000 });
    expect(calls()).toEqual([
      ['GetApiKeysCommand', expect.anything()],
      ['GetUsagePlansCommand', expect.objectContaining({ keyId: undefined })],
      [
        'CreateUsagePlanCommand',
        expect.objectContaining({
          name: KEY_NAME,
          throttle: { rateLimit: 2000, burstLimit: 4000 },
          apiStages: [{ apiId: API.restApiId, stage: API.stage }],
        }),
      ],
      ['GetUsagePlansCommand', expect.objectContaining({ keyId: 'key-7' })],
      ['DeleteUsagePlanKeyCommand', { usagePlanId: 'default-plan', keyId: 'key-7' }],
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'own-plan', keyId: 'key-7', keyType: 'API_KEY' }],
    ]);
  });

  it('updates the throttle of an existing own plan', async () => {
    apiGateway
      .on(GetUsagePlansCommand, { keyId: undefined })
      .resolves({ items: [{ id: 'own-plan', name: KEY_NAME }] });
    apiGateway.on(GetUsagePlansCommand, { keyId: 'key-7' }).resolves({ items: [{ id: 'own-plan' }] });
    await arrangeRateLimit(7, { rateLimit: 50, burstLimit: 60 });
    expect(apiGateway.commandCalls(UpdateUsagePlanCommand)[0]?.args[0].input).toEqual({
      usagePlanId: 'own-plan',
      patchOperations: [
        { op: 'replace', path: '/throttle/rateLimit', value: '50' },
        { op: 'replace', path: '/throttle/burstLimit', value: '60' },
      ],
    });
    expect(apiGateway.commandCalls(DeleteUsagePlanKeyCommand)).toHaveLength(0);
  });

  it('moves the key back to the default plan for --default-rate-limit', async () => {
    apiGateway.on(GetUsagePlansCommand, { keyId: 'key-7' }).resolves({ items: [{ id: 'own-plan' }] });
    const organization = await arrangeRateLimit(7, null);
    expect(organization.rateLimit).toBeNull();
    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input.UpdateExpression).toBe('REMOVE rateLimit');
    expect(calls().slice(1)).toEqual([
      ['GetUsagePlansCommand', expect.objectContaining({ keyId: 'key-7' })],
      ['DeleteUsagePlanKeyCommand', { usagePlanId: 'own-plan', keyId: 'key-7' }],
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'default-plan', keyId: 'key-7', keyType: 'API_KEY' }],
    ]);
  });

  it.each([
    { rateLimit: 0, burstLimit: 10 },
    { rateLimit: 10_001, burstLimit: 10 },
    { rateLimit: 10, burstLimit: 5001 },
    { rateLimit: 1.5, burstLimit: 10 },
  ])('refuses %o before writing anything', async (throttle) => {
    await expect(arrangeRateLimit(7, throttle)).rejects.toBeInstanceOf(SettingOutOfRange);
    expect(calls()).toEqual([]);
    expect(dynamo.calls()).toHaveLength(0);
  });
});
