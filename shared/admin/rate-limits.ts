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
  type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import { type Throttle, usageIdentifierKeyOf } from '#definitions/rate-limits.ts';
import { type Organization, setRateLimit } from '#domain/organizations.ts';
import { type Configuration, configuration } from '#platform/config.ts';
import { awsClientOptions, awsSettings, perConfiguration } from '#platform/configured.ts';

/**
 * Per-organization rate limits on AWS. API Gateway applies a usage plan's
 * throttle to the API key the authorizer names (`usageIdentifierKey`), so each
 * organization has one API Gateway key, in the default usage plan or in a plan
 * of its own when the operator arranged other limits. The organization item
 * records the arranged limits too: that record is what the local gateway
 * enforces and what `org set` shows. Against the local stack (no deployed API
 * in the configuration) only the record is written.
 */

/** The deployed API the CLI provisions against, from the stack outputs. */
type DeployedApi = NonNullable<Configuration['admin']['deployedApi']>;

const deployedApi = (): DeployedApi | null => configuration().admin.deployedApi ?? null;

const apiGateway = perConfiguration(
  (config) => awsSettings(config),
  (config) => new APIGatewayClient(awsClientOptions(config.aws)),
);

/** Keys and plans are named after the usage identifier: unique per API and organization. */
const keyName = (api: DeployedApi, orgId: number) => usageIdentifierKeyOf(api.restApiId, orgId);

/** Treats "already there" as done, so every step can be run again after a partial failure. */
async function ignoringConflict(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

async function findApiKeyId(api: DeployedApi, orgId: number): Promise<string | undefined> {
  const { items } = await apiGateway().send(
    new GetApiKeysCommand({ nameQuery: keyName(api, orgId), includeValues: false, limit: 500 }),
  );
  return items?.find((key) => key.name === keyName(api, orgId))?.id;
}

/** The organization's API Gateway key, created on first use. */
async function ensureApiKey(api: DeployedApi, orgId: number): Promise<string> {
  const existing = await findApiKeyId(api, orgId);
  if (existing) return existing;
  const created = await apiGateway().send(
    new CreateApiKeyCommand({
      name: keyName(api, orgId),
      description: `Usage plan identity of organization ${orgId} (returned by the authorizer, never sent by clients)`,
      value: usageIdentifierKeyOf(api.restApiId, orgId),
      enabled: true,
    }),
  );
  return created.id!;
}

async function allUsagePlans(keyId?: string): Promise<UsagePlan[]> {
  const plans: UsagePlan[] = [];
  let position: string | undefined;
  do {
    const page = await apiGateway().send(new GetUsagePlansCommand({ keyId, position, limit: 500 }));
    plans.push(...(page.items ?? []));
    position = page.position;
  } while (position);
  return plans;
}

/** The organization's own plan with these limits, created or updated. */
async function ensureOwnPlan(api: DeployedApi, orgId: number, throttle: Throttle): Promise<string> {
  const existing = (await allUsagePlans()).find((plan) => plan.name === keyName(api, orgId));
  if (!existing) {
    const created = await apiGateway().send(
      new CreateUsagePlanCommand({
        name: keyName(api, orgId),
        description: `Rate limit arranged for organization ${orgId}`,
        throttle,
        apiStages: [{ apiId: api.restApiId, stage: api.stage }],
      }),
    );
    return created.id!;
  }
  await apiGateway().send(
    new UpdateUsagePlanCommand({
      usagePlanId: existing.id,
      patchOperations: [
        { op: 'replace', path: '/throttle/rateLimit', value: String(throttle.rateLimit) },
        { op: 'replace', path: '/throttle/burstLimit', value: String(throttle.burstLimit) },
      ],
    }),
  );
  return existing.id!;
}

/**
 * Puts the key in exactly one plan. A key may be in only one plan per stage,
 * so it leaves the others first; until it joins the new one (a moment) its
 * calls are refused, which is why this only runs when an operator asks.
 */
async function moveKeyToPlan(keyId: string, usagePlanId: string): Promise<void> {
  for (const plan of await allUsagePlans(keyId)) {
    if (plan.id !== usagePlanId) {
      await apiGateway().send(new DeleteUsagePlanKeyCommand({ usagePlanId: plan.id, keyId }));
    }
  }
  await ignoringConflict(() =>
    apiGateway().send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: 'API_KEY' })),
  );
}

/** Gives a new organization its API Gateway key in the default plan (deployed stacks only). */
export async function provisionOrganizationRateLimit(orgId: number): Promise<void> {
  const api = deployedApi();
  if (!api) return;
  const keyId = await ensureApiKey(api, orgId);
  await ignoringConflict(() =>
    apiGateway().send(
      new CreateUsagePlanKeyCommand({ usagePlanId: api.defaultUsagePlanId, keyId, keyType: 'API_KEY' }),
    ),
  );
}

/**
 * Arranges `throttle` for the organization (null: back to the default plan):
 * validates and records it, then, on a deployed stack, moves the
 * organization's key to the matching usage plan.
 */
export async function arrangeRateLimit(orgId: number, throttle: Throttle | null): Promise<Organization> {
  const organization = await setRateLimit(orgId, throttle);
  const api = deployedApi();
  if (api) {
    const keyId = await ensureApiKey(api, orgId);
    const usagePlanId = throttle ? await ensureOwnPlan(api, orgId, throttle) : api.defaultUsagePlanId;
    await moveKeyToPlan(keyId, usagePlanId);
  }
  return organization;
}
