import type { Command } from '#admin/command.ts';
import { requiredId } from '#admin/flags.ts';
import { createApiKey } from '#use-cases/create-api-key.ts';
import { listApiKeys } from '#use-cases/list-api-keys.ts';
import { revokeApiKey } from '#use-cases/revoke-api-key.ts';

/** `key …`: an organization's API keys. */
export const apiKeyCommands: Record<string, Command> = {
  'key create': {
    usage: 'key create --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const created = await createApiKey({ orgId: requiredId(flags, 'org') });
      return { json: created, text: `Created key ${created.keyId}\nAPI key (shown once): ${created.apiKey}` };
    },
  },
  'key list': {
    usage: 'key list --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const keys = await listApiKeys({ orgId: requiredId(flags, 'org') });
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
      const revoked = await revokeApiKey({
        orgId: requiredId(flags, 'org'),
        keyId: requiredId(flags, 'key'),
      });
      return { json: revoked, text: `Revoked key ${revoked.keyId} at ${revoked.revokedAt}` };
    },
  },
};
