import { createHash } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { batchGet } from '#store/batch.ts';
import { keys } from '#store/keys.ts';
import { excludeAccountByDomain } from './accounts.ts';
import { normalizeEmail } from './contacts.ts';

/**
 * The organization's exclusion list: emails and domains that raw pushes skip
 * as `globally_excluded`. Each entry has its own record (with what the caller
 * said about it) and is also added to one of a fixed number of shard sets, so
 * a check reads every exclusion it needs in a single BatchGetItem.
 */

export type ExclusionKind = 'email' | 'domain';

/** Shards per kind; each is a string set of at most 400 KB (≈ 20,000 domains). */
export const EXCLUSION_SHARDS = 16;

/** The shard a value's membership is kept in. */
export const shardOf = (value: string): number =>
  createHash('sha1').update(value).digest().readUInt16BE(0) % EXCLUSION_SHARDS;

export interface ExclusionDetails {
  companyName?: string;
  companyLinkedinUrl?: string;
}

/**
 * Adds an email or a (normalized) domain to the exclusion list; adding it again
 * updates the details and changes nothing else. Excluding a domain also
 * excludes the organization's account with that domain.
 */
export async function addExclusion(
  orgId: number,
  kind: ExclusionKind,
  rawValue: string,
  details: ExclusionDetails = {},
): Promise<void> {
  const value = kind === 'email' ? normalizeEmail(rawValue) : rawValue;
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.exclusion(orgId, kind, value),
        type: 'exclusion',
        orgId,
        kind,
        value,
        companyName: details.companyName,
        companyLinkedinUrl: details.companyLinkedinUrl,
        updatedAt: new Date().toISOString(),
      },
    }),
  );
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.exclusionShard(orgId, kind, shardOf(value)),
      UpdateExpression: 'ADD #values :value',
      ExpressionAttributeNames: { '#values': 'values' },
      ExpressionAttributeValues: { ':value': new Set([value]) },
    }),
  );
  if (kind === 'domain') await excludeAccountByDomain(orgId, value);
}

/** The exclusion shard keys that hold the given values' membership. */
export function exclusionShardKeys(orgId: number, values: { emails: string[]; domains: string[] }) {
  const shards = new Map<string, Record<string, string>>();
  for (const [kind, list] of [
    ['email', values.emails],
    ['domain', values.domains],
  ] as const) {
    for (const value of list) {
      const key = keys.exclusionShard(orgId, kind, shardOf(value));
      shards.set(`${key.pk}|${key.sk}`, key);
    }
  }
  return [...shards.values()];
}

/** Which of the given emails and domains are excluded, read in one BatchGetItem (≤ 32 shard items). */
export async function findExclusions(
  orgId: number,
  values: { emails: string[]; domains: string[] },
): Promise<{ emails: Set<string>; domains: Set<string> }> {
  const excluded = { emails: new Set<string>(), domains: new Set<string>() };
  for (const item of await batchGet(exclusionShardKeys(orgId, values))) {
    const target = String(item.sk).startsWith('EMAIL#') ? excluded.emails : excluded.domains;
    for (const value of (item.values as Set<string> | undefined) ?? []) target.add(value);
  }
  return {
    emails: new Set(values.emails.filter((email) => excluded.emails.has(email))),
    domains: new Set(values.domains.filter((domain) => excluded.domains.has(domain))),
  };
}
