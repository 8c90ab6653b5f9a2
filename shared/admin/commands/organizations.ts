import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  type Flags,
  optionalString,
  requiredId,
  requiredString,
  UsageError,
  wholeNumberFlag,
} from '#admin/flags.ts';
import { plural } from '#admin/format.ts';
import { arrangeRateLimit, provisionOrganizationRateLimit } from '#admin/rate-limits.ts';
import {
  DEFAULT_ORGANIZATION_THROTTLE,
  MAX_ORGANIZATION_THROTTLE,
  type Throttle,
} from '#definitions/rate-limits.ts';
import { MAX_COOLDOWN_DAYS, MIN_COOLDOWN_DAYS } from '#domain/organizations.ts';
import { createOrganization } from '#use-cases/create-organization.ts';
import { setOrganization } from '#use-cases/set-organization.ts';

/** `org …`: organizations, their cooldown window and rate limit. */

/** `--rate N --burst M` (both), `--default-rate-limit`, or nothing (undefined). */
function rateLimitFlags(flags: Flags): Throttle | null | undefined {
  const rate = optionalString(flags, 'rate');
  const burst = optionalString(flags, 'burst');
  if (flags['default-rate-limit'] === true) {
    if (rate !== undefined || burst !== undefined) {
      throw new UsageError('--default-rate-limit cannot be combined with --rate or --burst');
    }
    return null;
  }
  if (rate === undefined && burst === undefined) return undefined;
  if (rate === undefined || burst === undefined) throw new UsageError('--rate and --burst go together');
  return {
    rateLimit: wholeNumberFlag('rate', rate, 1, MAX_ORGANIZATION_THROTTLE.rateLimit),
    burstLimit: wholeNumberFlag('burst', burst, 1, MAX_ORGANIZATION_THROTTLE.burstLimit),
  };
}

export const organizationCommands: Record<string, Command> = {
  'org create': {
    usage: 'org create --name NAME',
    summary: 'Create an organization and its first API key.',
    flags: { name: { type: 'string', description: 'the organization’s name' } },
    async run(flags) {
      const { orgId, apiKey } = await createOrganization(
        { name: requiredString(flags, 'name') },
        provisionOrganizationRateLimit,
      );
      return {
        json: { orgId, apiKey },
        text: `Created organization ${orgId}\nAPI key (shown once): ${apiKey}`,
      };
    },
  },
  'org set': {
    usage: 'org set --org ID [--cooldown-days N] [--rate N --burst M | --default-rate-limit]',
    summary: 'Set an organization’s cooldown window or rate limit.',
    flags: {
      org: { type: 'string' },
      'cooldown-days': { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      'default-rate-limit': { type: 'boolean' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const cooldown = optionalString(flags, 'cooldown-days');
      // Every flag is checked before anything is written.
      const cooldownDays =
        cooldown === undefined
          ? undefined
          : wholeNumberFlag('cooldown-days', cooldown, MIN_COOLDOWN_DAYS, MAX_COOLDOWN_DAYS);
      const rateLimit = rateLimitFlags(flags);
      if (cooldownDays === undefined && rateLimit === undefined) {
        throw new UsageError(
          'Nothing to set: give --cooldown-days N, --rate N --burst M or --default-rate-limit',
        );
      }
      const organization = await setOrganization({ orgId, cooldownDays, rateLimit }, arrangeRateLimit);
      const limit = organization.rateLimit ?? DEFAULT_ORGANIZATION_THROTTLE;
      return {
        json: organization,
        text: [
          `Organization ${organization.orgId}: cooldown window ${plural(organization.cooldownDays, 'day')}`,
          `rate limit ${limit.rateLimit} requests/s, burst ${limit.burstLimit}${organization.rateLimit ? '' : ' (default)'}`,
        ].join(', '),
      };
    },
  },
};
