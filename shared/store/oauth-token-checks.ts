import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AssistantGrantItem } from './assistant-grants.ts';
import { batchGet } from './batch.ts';
import * as keys from './item-keys.ts';
import { assistantGrantItem } from './item-schemas/assistant-grants.ts';
import {
  type DynamicClientItem,
  dynamicClientItem,
  type OAuthClientItem,
  oauthClientItem,
  type TokenFamilyItem,
  type TokenItem,
  tokenFamilyItem,
  tokenItem,
} from './item-schemas/oauth.ts';
import { type TableSource, tableContext } from './table-context.ts';

/**
 * What checking a presented access token reads, the request window it
 * counts on /mcp (`countClientRequest`), and the conditional window count the
 * OAuth store's registration windows use (`countInWindow`): functions of their own, so the MCP function, which does
 * nothing else with the OAuth items, carries neither the OAuth store
 * (oauth.ts) nor the validators of the items it never reads
 * (docs/architecture.md, Bundles).
 */

export type StoredClientItem = ({ kind: 'operator' } & OAuthClientItem) | DynamicClientItem;

export const storedClientOf = (item: Record<string, unknown>): StoredClientItem =>
  item.kind === 'dynamic'
    ? dynamicClientItem.parse(item)
    : { kind: 'operator', ...oauthClientItem.parse(item) };

export const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

/** What a token's validity depends on besides itself, read together. */
export interface TokenStanding {
  client: StoredClientItem | null;
  grant: AssistantGrantItem | null;
  family: TokenFamilyItem | null;
}

/** The token whose standing is read: its grant's organization and client, and its family if any. */
export interface TokenOfStanding {
  orgId: number;
  clientId: string;
  /** Whether the client has an item (a metadata-document client has none). */
  storedClient: boolean;
  familyId?: string;
}

/** An access token by the hash of its value; null when there is none (or it expired and was deleted). */
export async function getAccessToken(
  tokenHash: string,
  table: TableSource = tableContext,
): Promise<TokenItem | null> {
  const { name, client } = table();
  const { Item } = await client.send(
    new GetCommand({ TableName: name, Key: keys.oauthGrant('token', tokenHash) }),
  );
  return Item ? tokenItem.parse(Item) : null;
}

/**
 * What a token stands on, in one BatchGetItem (consistent, so a revocation
 * counts at once): its client (not read for a metadata-document client,
 * which has no item), its organization's grant, and its family (when it has one).
 */
export async function tokenStanding(
  token: TokenOfStanding,
  table: TableSource = tableContext,
): Promise<TokenStanding> {
  const clientKey = keys.oauthClient(token.clientId);
  const grantKey = keys.assistantGrant(token.orgId, token.clientId);
  const familyKey = token.familyId === undefined ? null : keys.oauthTokenFamily(token.familyId);
  const items = await batchGet(
    [...(token.storedClient ? [clientKey] : []), grantKey, ...(familyKey ? [familyKey] : [])],
    { consistent: true },
    table(),
  );
  const find = (key: { pk: string; sk: string }) =>
    items.find((item) => item.pk === key.pk && item.sk === key.sk);
  const client = find(clientKey);
  const grant = find(grantKey);
  const family = familyKey && find(familyKey);
  return {
    client: client ? storedClientOf(client) : null,
    grant: grant ? assistantGrantItem.parse(grant) : null,
    family: family ? tokenFamilyItem.parse(family) : null,
  };
}

/**
 * Counts one more in a fixed window's counter item, unless it holds `limit`
 * already (false then): a conditional UpdateItem, so the limit holds however
 * many instances count. The window expires at `expiresAt`.
 */
export async function countInWindow(
  window: { key: { pk: string; sk: string }; counter: string; limit: number; expiresAt: number },
  table: TableSource = tableContext,
): Promise<boolean> {
  const { name, client } = table();
  try {
    await client.send(
      new UpdateCommand({
        TableName: name,
        Key: window.key,
        UpdateExpression: 'ADD #counter :one SET expiresAt = :expires',
        ConditionExpression: 'attribute_not_exists(#counter) OR #counter < :limit',
        ExpressionAttributeNames: { '#counter': window.counter },
        ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':expires': window.expiresAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Counts one request in the client's window of this second on /mcp: one UpdateItem (ADD) that
 * returns the window's count, this request included. Not conditioned on the limit, so that it can be
 * sent before the client's rate is known (#domain/mcp-rate-limit.ts): a request over the limit still
 * counts, which changes no answer in that second and is gone with its window.
 */
export async function countClientRequest(
  clientId: string,
  second: number,
  expiresAt: number,
  table: TableSource = tableContext,
): Promise<number> {
  const { name, client } = table();
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: name,
      Key: keys.mcpRequestWindow(clientId, second),
      UpdateExpression: 'ADD #counter :one SET expiresAt = :expires',
      ExpressionAttributeNames: { '#counter': 'requests' },
      ExpressionAttributeValues: { ':one': 1, ':expires': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Attributes?.requests;
  if (typeof count !== 'number') throw new Error('The /mcp rate window returned no count');
  return count;
}
