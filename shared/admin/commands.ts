import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { createOrganization } from '../domain/organizations.ts';

/**
 * The operator commands. Each takes parsed flags and returns a JSON-able result
 * plus a one-line human rendering; `cli.ts` does the parsing and printing.
 */

export type Flags = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandResult {
  json: unknown;
  text: string;
}

export interface Command {
  usage: string;
  /** Flags the command takes, with whether each may repeat. */
  flags: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(flags: Flags, positionals: string[]): Promise<CommandResult>;
}

/** Thrown for a command line that does not fit the usage; the CLI exits 2. */
export class UsageError extends Error {}

function requiredString(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function requiredId(flags: Flags, name: string): number {
  const value = Number(requiredString(flags, name));
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

export const commands: Record<string, Command> = {
  'org create': {
    usage: 'org create --name NAME',
    flags: { name: { type: 'string' } },
    async run(flags) {
      const organization = await createOrganization(requiredString(flags, 'name'));
      const { apiKey } = await createApiKey(organization.orgId);
      return {
        json: { orgId: organization.orgId, apiKey },
        text: `Created organization ${organization.orgId}\nAPI key (shown once): ${apiKey}`,
      };
    },
  },
  'key create': {
    usage: 'key create --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const created = await createApiKey(requiredId(flags, 'org'));
      return { json: created, text: `Created key ${created.keyId}\nAPI key (shown once): ${created.apiKey}` };
    },
  },
  'key list': {
    usage: 'key list --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const keys = await listApiKeys(requiredId(flags, 'org'));
      const text = keys
        .map(
          (key) =>
            `${key.keyId}\tcreated ${key.createdAt}\tlast used ${key.lastUsedAt ?? 'never'}${key.revokedAt ? `\trevoked ${key.revokedAt}` : ''}`,
        )
        .join('\n');
      return { json: { keys }, text: text || 'No keys' };
    },
  },
  'key revoke': {
    usage: 'key revoke --org ID --key KEY_ID',
    flags: { org: { type: 'string' }, key: { type: 'string' } },
    async run(flags) {
      const revoked = await revokeApiKey(requiredId(flags, 'org'), requiredId(flags, 'key'));
      return { json: revoked, text: `Revoked key ${revoked.keyId} at ${revoked.revokedAt}` };
    },
  },
};
