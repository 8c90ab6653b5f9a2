import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  optionalString,
  requiredId,
  requiredString,
  UsageError,
  wholeNumberFlag,
} from '#admin/flags.ts';
import { listText, plural } from '#admin/format.ts';
import { approveAssignments } from '#use-cases/approve-assignments.ts';
import { getOrganization } from '#use-cases/get-organization.ts';
import { type EnrollmentFailure, listEnrollmentFailures } from '#use-cases/list-enrollment-failures.ts';

/**
 * `assignments approve` and `provider failures`: approving pending-approval
 * assignments (which enrolls them at their provider when their sequence is
 * linked to a connected provider campaign) and the enrollments providers
 * refused (docs/providers.md#enrollment).
 */

/** How many assignment ids `--ids` takes at once. */
const MAX_IDS = 1_000;
const DEFAULT_FAILURES_PAGE = 50;
const MAX_FAILURES_PAGE = 100;

function idsOf(raw: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > MAX_IDS) throw new UsageError(`--ids takes at most ${MAX_IDS} ids`);
  return parts.map((part) => {
    const id = /^[0-9]{1,16}$/.test(part) ? Number(part) : Number.NaN;
    if (!Number.isSafeInteger(id) || id <= 0)
      throw new UsageError('--ids must be positive integers separated by commas');
    return id;
  });
}

const FAILURE_COLUMNS = [
  'FAILED AT',
  'ASSIGNMENT',
  'CAMPAIGN',
  'PROVIDER',
  'EXTERNAL ID',
  'CONNECTION',
  'ERROR',
];
const failureRow = (failure: EnrollmentFailure) => [
  failure.failed_at,
  failure.assignment_id,
  failure.campaign_id,
  failure.provider,
  failure.external_id,
  failure.connection_id,
  failure.error,
];

export const enrollmentCommands: Record<string, Command> = {
  'assignments approve': {
    usage: 'assignments approve --org ID --campaign ID (--ids 1,2,… | --all)',
    summary: 'Approve pending assignments of a campaign.',
    flags: {
      org: { type: 'string' },
      campaign: { type: 'string' },
      ids: { type: 'string' },
      all: { type: 'boolean' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const campaignId = requiredId(flags, 'campaign');
      const all = flags.all === true;
      if (all === (flags.ids !== undefined))
        throw new UsageError('Name the assignments with --ids, or use --all');
      const selection = all
        ? ({ all: true } as const)
        : { assignmentIds: idsOf(requiredString(flags, 'ids')) };
      await getOrganization({ orgId });
      const result = await approveAssignments({ orgId, campaignId, selection });
      const lines = [
        `Approved ${plural(result.approved.length, 'assignment')}${result.approved.length > 0 ? `: ${result.approved.join(', ')}` : ''}`,
      ];
      for (const skipped of result.skipped) lines.push(`Skipped ${skipped.assignmentId}: ${skipped.reason}`);
      return { json: result, text: lines.join('\n') };
    },
  },
  'provider failures': {
    usage: 'provider failures --org ID [--take N] [--cursor C]',
    summary: 'List enrollments the providers refused.',
    flags: { org: { type: 'string' }, take: { type: 'string' }, cursor: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const rawTake = optionalString(flags, 'take');
      const take =
        rawTake === undefined
          ? DEFAULT_FAILURES_PAGE
          : wholeNumberFlag('take', rawTake, 1, MAX_FAILURES_PAGE);
      const cursor = optionalString(flags, 'cursor');
      await getOrganization({ orgId });
      const page = await listEnrollmentFailures({ orgId, take, cursor });
      const more = page.next ? `More: --cursor '${page.next}'` : undefined;
      return {
        json: page,
        text: listText(FAILURE_COLUMNS, page.data.map(failureRow), 'No refused enrollments', more),
      };
    },
  },
};
