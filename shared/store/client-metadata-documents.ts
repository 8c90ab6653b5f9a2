import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from './item-keys.ts';
import { type MetadataDocumentItem, metadataDocumentItem } from './item-schemas/client-metadata-documents.ts';
import { countInWindow } from './oauth-token-checks.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { MetadataDocumentItem };

/**
 * The cache of client ID metadata documents, shared by every Lambda
 * instance: one item per document, by the SHA-256 of its URL, holding what
 * its last fetch came to until its cache period ends (TTL; reads check the
 * expiry, since DynamoDB deletes lazily); and the per-address window of
 * fetches. Functions of their own, so that only the authorization endpoint,
 * which fetches documents, carries them (docs/architecture.md, Bundles).
 */

/** The document's cache entry, expired or not; null when there is none. Read consistently: a fetch just cached counts. */
export async function getMetadataDocumentEntry(
  urlHash: string,
  table: TableSource = tableContext,
): Promise<MetadataDocumentItem | null> {
  const { name, client } = table();
  const { Item } = await client.send(
    new GetCommand({ TableName: name, Key: keys.oauthMetadataDocument(urlHash), ConsistentRead: true }),
  );
  return Item ? metadataDocumentItem.parse(Item) : null;
}

/** Puts the outcome of a fetch in the cache, in place of any earlier one. */
export async function putMetadataDocumentEntry(
  urlHash: string,
  entry: MetadataDocumentItem,
  table: TableSource = tableContext,
): Promise<void> {
  const { name, client } = table();
  await client.send(
    new PutCommand({
      TableName: name,
      Item: { ...keys.oauthMetadataDocument(urlHash), type: 'oauthMetadataDocument', ...entry },
    }),
  );
}

/** Counts one fetch in the source address's window of this minute, unless it holds `limit` already (false then). */
export const admitMetadataDocumentFetch = (
  sourceAddress: string,
  minute: number,
  limit: number,
  expiresAt: number,
  table: TableSource = tableContext,
): Promise<boolean> =>
  countInWindow(
    { key: keys.oauthMetadataFetchWindow(sourceAddress, minute), counter: 'fetches', limit, expiresAt },
    table,
  );
