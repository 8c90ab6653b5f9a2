import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Configuration, configuration, tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';

/**
 * The one table the stores work on: its name and the document client that
 * reaches it. Stores receive it (every entity store is built from a source of
 * it, and the table primitives take it as their last argument); no domain
 * module reads the configuration for it.
 */
export interface TableContext {
  readonly name: string;
  readonly client: DynamoDBDocumentClient;
}

/** Where a store gets its table from when it needs it. */
export type TableSource = () => TableContext;

let configured: { config: Configuration; context: TableContext } | undefined;

/**
 * The configured table: the platform configuration's table name and its
 * DynamoDB client, taken from the configuration object when a store first
 * needs them and again only when another configuration is installed (the
 * local stack, the CLI and tests install theirs).
 */
export const tableContext: TableSource = () => {
  const config = configuration();
  if (configured?.config !== config) configured = { config, context: { name: tableName(), client: dynamo } };
  return configured.context;
};
