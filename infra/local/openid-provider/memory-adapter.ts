import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * Where oidc-provider keeps its sessions, interactions, codes, tokens and
 * grants: memory of this provider's own. oidc-provider's bundled memory
 * adapter is one store for the whole process (so two providers, or one
 * restarted in a test, would share sessions) and warns on every start; this
 * one lives and dies with its provider. None of it is persisted: after a
 * restart a person signs in again, and ID tokens, being signed JWTs, still
 * verify (the keys are what persists).
 */

interface StoredRecord {
  payload: AdapterPayload;
  expiresAt: number;
}

export interface MemoryStore {
  /** The adapter factory (`configuration.adapter`): every model's adapter uses this one store. */
  adapter: (modelName: string) => Adapter;
  /**
   * Drops everything of an account (its sessions, interactions, grants, codes and tokens), as Cognito
   * signs a deleted user out everywhere. oidc-provider cannot go on with a session whose account is gone:
   * its consent check fails on the missing grant.
   */
  forgetAccount(accountId: string): void;
}

export function memoryStore(): MemoryStore {
  const records = new Map<string, StoredRecord>();
  // oidc-provider finds sessions by their uid too, and revokes everything issued under a grant.
  const sessionIdByUid = new Map<string, string>();
  const keysByGrantId = new Map<string, Set<string>>();

  const current = (key: string): StoredRecord | undefined => {
    const record = records.get(key);
    if (record && record.expiresAt <= Date.now()) {
      records.delete(key);
      return undefined;
    }
    return record;
  };

  // Expired records go when next read, or here (on a write), and with them the index entries of records
  // gone: the store stays as small as what is live.
  const prune = () => {
    const now = Date.now();
    for (const [key, record] of records) if (record.expiresAt <= now) records.delete(key);
    for (const [uid, id] of sessionIdByUid) if (!records.has(`Session:${id}`)) sessionIdByUid.delete(uid);
    for (const [grantId, keys] of keysByGrantId) {
      for (const key of keys) if (!records.has(key)) keys.delete(key);
      if (keys.size === 0) keysByGrantId.delete(grantId);
    }
  };

  const adapter = (modelName: string): Adapter => {
    const keyOf = (id: string) => `${modelName}:${id}`;
    const find = async (id: string) => {
      const record = current(keyOf(id));
      // A copy, as a database would answer: the provider's changes reach the store only through upsert.
      return record ? structuredClone(record.payload) : undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        prune();
        const key = keyOf(id);
        records.set(key, { payload: structuredClone(payload), expiresAt: Date.now() + expiresIn * 1000 });
        if (modelName === 'Session' && typeof payload.uid === 'string') sessionIdByUid.set(payload.uid, id);
        if (payload.grantId) {
          const keys = keysByGrantId.get(payload.grantId) ?? new Set<string>();
          keysByGrantId.set(payload.grantId, keys.add(key));
        }
      },
      find,
      async findByUid(uid) {
        const id = sessionIdByUid.get(uid);
        return id === undefined ? undefined : find(id);
      },
      async consume(id) {
        const record = current(keyOf(id));
        if (record) record.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        records.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of keysByGrantId.get(grantId) ?? []) records.delete(key);
        keysByGrantId.delete(grantId);
      },
    };
  };

  const forgetAccount = (accountId: string) => {
    for (const [key, { payload }] of records) if (payload.accountId === accountId) records.delete(key);
    prune();
  };

  return { adapter, forgetAccount };
}
