import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchPut } from './batch.ts';
import * as keys from './item-keys.ts';
import { type JobPosition, type JobRecord, jobItem, jobPosition, knownJob } from './item-schemas/jobs.ts';
import { type TableSource, tableContext } from './table-context.ts';

export type { JobPosition, JobRecord };

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Job openings, addressed by id. Each keeps the sequence number it got when
 * first stored: gsi1 lists a domain's jobs newest `first_seen_at` first (ties
 * by sequence), and gsi2 finds a job by its sequence number, the search's
 * page cursor.
 */

export function jobStore(table: TableSource = tableContext) {
  return {
    /** The sequence numbers of the jobs already stored, by job id (BatchGetItem). */
    async sequencesOf(orgId: number, jobIds: string[]): Promise<Map<string, number>> {
      const items = await batchGet(
        jobIds.map((id) => keys.job(orgId, id)),
        {},
        table(),
      );
      return new Map(
        items.map((item) => {
          const job = knownJob.parse(item);
          return [job.jobId, job.sequence];
        }),
      );
    },

    /** Writes jobs (created or replaced), 25 a BatchWriteItem. */
    async putAll(orgId: number, jobs: JobRecord[]): Promise<void> {
      await batchPut(
        jobs.map((job) => ({
          ...keys.job(orgId, job.jobId),
          ...keys.jobListing(orgId, job.domain, job.firstSeenAt, job.sequence),
          type: 'job',
          orgId,
          ...job,
        })),
        table(),
      );
    },

    /** The position of the job with this sequence number in the domain's listing; null when it is not there. */
    async positionOf(orgId: number, domain: string, sequence: number): Promise<JobPosition | null> {
      const { name, client } = table();
      const { Items } = await client.send(
        new QueryCommand({
          TableName: name,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.jobCursorIndex(orgId, sequence).gsi2pk },
        }),
      );
      const job = Items?.[0];
      if (!job || job.gsi1pk !== keys.jobsOfDomainIndex(orgId, domain).gsi1pk) return null;
      return jobPosition.parse(job);
    },

    /**
     * The first `limit` of a domain's jobs, newest `first_seen_at` first,
     * after `after` when given, first seen strictly after `since` when given.
     */
    async firstOfDomain(
      orgId: number,
      domain: string,
      limit: number,
      options: { after?: JobPosition; since?: string } = {},
    ): Promise<JobRecord[]> {
      const { name, client } = table();
      const { gsi1pk } = keys.jobsOfDomainIndex(orgId, domain);
      // Sort keys are `<first_seen_at>#<sequence>`; '~' sorts after every digit, so this keeps strictly later times.
      const since = options.since === undefined ? undefined : `${options.since}#~`;
      let startKey: Record<string, unknown> | undefined = options.after && { ...options.after };
      // Everything after a position at or before `since` is older still: nothing is left.
      if (since && options.after && options.after.gsi1sk <= since) return [];
      const items: Record<string, unknown>[] = [];
      while (items.length < limit) {
        const page = await client.send(
          new QueryCommand({
            TableName: name,
            IndexName: 'gsi1',
            KeyConditionExpression: since ? 'gsi1pk = :pk AND gsi1sk > :since' : 'gsi1pk = :pk',
            ExpressionAttributeValues: since ? { ':pk': gsi1pk, ':since': since } : { ':pk': gsi1pk },
            ScanIndexForward: false,
            Limit: limit - items.length,
            ExclusiveStartKey: startKey,
          }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
        if (!startKey) break;
      }
      return items.map((item) => jobItem.parse(item));
    },
  };
}

/** The job openings of the configured table. */
export const jobs = /* @__PURE__ */ jobStore();
