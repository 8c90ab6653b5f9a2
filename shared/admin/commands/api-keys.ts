import type { Command } from '#admin/command.ts';
import { optionalString, requiredId, validatedFlags, wholeNumberFlag } from '#admin/flags.ts';
import { listText } from '#admin/format.ts';
import {
  type ApiKeySummary,
  isExpired,
  MAX_API_KEY_EXPIRY_DAYS,
  newApiKeyOptions,
} from '#domain/api-keys.ts';
import { createApiKey } from '#use-cases/create-api-key.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { listApiKeys } from '#use-cases/list-api-keys.ts';
import { revokeApiKey } from '#use-cases/revoke-api-key.ts';

/** `expires <time>`, `expired <time>` once it has passed, or `expires never`. */
function expiryOf(key: Pick<ApiKeySummary, 'expiresAt'>): string {
  if (key.expiresAt === null) return 'expires never';
  return `${isExpired(key) ? 'expired' : 'expires'} ${key.expiresAt}`;
}

/** A key's name as its text shows it: quoted, so spaces and commas in it stay part of it. */
const quotedName = (name: string) => JSON.stringify(name);

/** `key …`: an organization's API keys. */
export const apiKeyCommands: Record<string, Command> = {
  'key create': {
    usage: 'key create --org ID [--scope read|read-write] [--name NAME] [--expires-in-days DAYS]',
    summary: 'Create an API key for an organization.',
    flags: {
      org: { type: 'string' },
      scope: { type: 'string' },
      name: { type: 'string', description: 'a label for the key, as `key list` shows it' },
      'expires-in-days': { type: 'string' },
    },
    async run(flags) {
      const orgId = requiredId(flags, 'org');
      const days = optionalString(flags, 'expires-in-days');
      const options = validatedFlags(newApiKeyOptions, {
        scope: optionalString(flags, 'scope'),
        name: optionalString(flags, 'name'),
        expiresInDays:
          days === undefined
            ? undefined
            : wholeNumberFlag('expires-in-days', days, 1, MAX_API_KEY_EXPIRY_DAYS),
      });
      const created = await createApiKey({ orgId, ...options });
      const details = [
        `scope ${created.scope}`,
        ...(created.name === null ? [] : [`name ${quotedName(created.name)}`]),
        expiryOf(created),
      ];
      return {
        json: created,
        text: `Created key ${created.keyId} (${details.join(', ')})\nAPI key (shown once): ${created.apiKey}`,
      };
    },
  },
  'key list': {
    usage: 'key list --org ID',
    summary: 'List an organization’s API keys.',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const orgId = requiredId(flags, 'org');
      await getOrganization({ orgId });
      const keys = await listApiKeys({ orgId });
      const text = listText(
        ['KEY', 'CREATED', 'LAST USED', 'REVOKED', 'SCOPE', 'EXPIRES', 'NAME'],
        keys.map((key) => [
          key.keyId,
          key.createdAt,
          key.lastUsedAt ?? 'never',
          key.revokedAt,
          key.scope,
          expiryOf(key).replace(/^expires /, ''),
          key.name === null ? null : quotedName(key.name),
        ]),
        'No keys',
      );
      return { json: { keys }, text };
    },
  },
  'key revoke': {
    usage: 'key revoke --org ID --key KEY_ID',
    summary: 'Revoke an API key.',
    flags: { org: { type: 'string' }, key: { type: 'string' } },
    async run(flags) {
      const orgId = requiredId(flags, 'org');
      const keyId = requiredId(flags, 'key');
      await getOrganization({ orgId });
      const revoked = await revokeApiKey({ orgId, keyId });
      return { json: revoked, text: `Revoked key ${revoked.keyId} at ${revoked.revokedAt}` };
    },
  },
};
