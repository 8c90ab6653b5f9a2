/**
 * The single table: the one definition that the CDK stack, the local stack and
 * the tests all build the table from. Key attributes are generic (pk/sk and
 * gsiNpk/gsiNsk); what they hold for each item type is decided in
 * `shared/store/keys.ts` only.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Global secondary indexes; every one projects all attributes. */
  globalSecondaryIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds after which DynamoDB may delete the item (idempotency records, outbox, tokens). */
  timeToLiveAttribute: 'expiresAt',
  /** The stream feeds the outbox relay; it needs the written item only. */
  streamViewType: 'NEW_IMAGE',
} as const;

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];

/**
 * The CreateTable input for DynamoDB Local (the local stack and tests). `stream: false` leaves the
 * stream off, for tests that run no relay: DynamoDB Local keeps every table's stream records in one
 * store and slows down as it fills.
 */
export function createTableInput(tableName: string, options: { stream?: boolean } = {}) {
  const keyAttributes = [
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification:
      options.stream === false
        ? { StreamEnabled: false }
        : { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
  };
}
