/**
 * Every key of the single table is composed here and nowhere else. Each item
 * type has a builder returning its full key set (pk/sk plus any GSI keys), so a
 * repository can spread it into an item and never spells a key by hand.
 *
 * Tenant rule: every organization-owned item's partition key starts with
 * `ORG#<orgId>`, so a read that takes the caller's organization cannot reach
 * another organization's data.
 */

/** Fixed-width decimal so lexicographic order equals numeric order (ids are ≤ 2^53−1, 16 digits). */
export const sortableNumber = (value: number): string => value.toString().padStart(16, '0');

const apiKeysOfOrganization = (orgId: number) => ({ gsi1pk: `ORG#${orgId}#APIKEYS` });
const apiKeyLookup = (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: 'APIKEY' });
const apiKeyInOrganization = (orgId: number, keyId: number) => ({
  ...apiKeysOfOrganization(orgId),
  gsi1sk: `APIKEY#${sortableNumber(keyId)}`,
});

export const keys = {
  /** Monotonic id counter per entity type. */
  counter: (entity: string) => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' }),

  /** Marks which organization the demo seed created, so a restarted local stack can name it. */
  demoSeed: () => ({ pk: 'SEED#DEMO', sk: 'SEED' }),

  /** The organization record. */
  organization: (orgId: number) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),

  /**
   * An API key, addressed by the hash of its secret so the authorizer resolves it
   * with one GetItem; gsi1 lists an organization's keys.
   */
  apiKey: (secretHash: string, orgId: number, keyId: number) => ({
    ...apiKeyLookup(secretHash),
    ...apiKeyInOrganization(orgId, keyId),
  }),
  apiKeyLookup,
  apiKeyInOrganization,
  apiKeysOfOrganization,
} as const;
