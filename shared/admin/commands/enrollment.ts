import type { Command } from '#admin/command.ts';
import {
  expectPositionals,
  optionalString,
  requiredId,
  requiredString,
  UsageError,
  wholeNumberFlag,
} from '#admin/flags.ts';
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

const describeFailure = (failure: EnrollmentFailure) =>
  `${failure.failed_at}\tassignment ${failure.assignment_id}\tcampaign ${failure.campaign_id}\t${failure.provider} ${failure.external_id} (connection ${failure.connection_id})\t${failure.error}`;

export const enrollmentCommands: Record<string, Command> = {
  'assignments approve': {
    usage: 'assignments approve --org ID --campaign ID (--ids 1,2,… | --all)',
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
        `Approved ${result.approved.length} assignment(s)${result.approved.length > 0 ? `: ${result.approved.join(', ')}` : ''}`,
      ];
      for (const skipped of result.skipped) lines.push(`Skipped ${skipped.assignmentId}: ${skipped.reason}`);
      return { json: result, text: lines.join('\n') };
    },
  },
  'provider failures': {
    usage: 'provider failures --org ID [--take N] [--cursor C]',
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
      const lines = page.data.map(describeFailure);
      if (page.next) lines.push(`More: --cursor '${page.next}'`);
      return { json: page, text: lines.join('\n') || 'No refused enrollments' };
    },
  },
};
