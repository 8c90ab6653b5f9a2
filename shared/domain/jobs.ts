import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { JobInput } from '#schemas/import.ts';
import type { Job } from '#schemas/resources.ts';
import { batchGet, batchPut } from '#store/batch.ts';
import { allocateIds } from '#store/ids.ts';
import { keys } from '#store/keys.ts';
import { UnknownCursor } from './errors.ts';

/**
 * Job openings by company domain. Each job keeps the sequence number it got
 * when first stored; the search's page cursor is that number, so a cursor
 * stays valid however many jobs arrive later.
 */

/** The Job resource of a stored item. */
export function toJob(item: Record<string, unknown>): Job {
  return {
    id: item.jobId as string,
    domain: item.domain as string,
    title: item.title as string,
    url: item.url as string,
    last_seen_at: item.lastSeenAt as string,
    first_seen_at: item.firstSeenAt as string,
    status: item.status as string,
    location: item.location as string,
    description: item.description as string,
  };
}

/**
 * Stores jobs (domains already normalized), keeping the sequence number of
 * jobs seen before: BatchGetItem for the known ones, one counter update for the
 * new ones, BatchWriteItem for all.
 */
export async function upsertJobs(orgId: number, jobs: (JobInput & { domain: string })[]): Promise<void> {
  const known = await batchGet([...new Set(jobs.map((job) => job.id))].map((id) => keys.job(orgId, id)));
  const sequences = new Map(known.map((item) => [item.jobId as string, item.sequence as number]));
  const newIds = [...new Set(jobs.map((job) => job.id).filter((id) => !sequences.has(id)))];
  const allocated = await allocateIds('job', newIds.length);
  for (const [index, id] of newIds.entries()) sequences.set(id, allocated[index]!);

  // The last occurrence of a job id in the input wins.
  const latest = new Map(jobs.map((job) => [job.id, job]));
  const items = [...latest.values()].map((job) => {
    const sequence = sequences.get(job.id)!;
    return {
      ...keys.job(orgId, job.id),
      ...keys.jobListing(orgId, job.domain, job.first_seen_at, sequence),
      type: 'job',
      orgId,
      jobId: job.id,
      sequence,
      domain: job.domain,
      title: job.title,
      url: job.url,
      firstSeenAt: job.first_seen_at,
      lastSeenAt: job.last_seen_at,
      status: job.status,
      location: job.location,
      description: job.description,
    };
  });
  await batchPut(items);
}

/** A page of a domain's jobs and the cursor of the next one (0 on the last page). */
export interface JobPage {
  domain: string;
  next: number;
  jobs: Job[];
}

/**
 * One page of a domain's jobs, newest `first_seen_at` first (ties by arrival).
 * The cursor is the sequence number of the last job of the previous page; the
 * page continues right after that job in the index, so jobs that arrive
 * between pages never shift or repeat what is left. One extra job is read to
 * know whether another page exists, so the last page says `next: 0`.
 */
export async function searchJobs(
  orgId: number,
  domain: string,
  options: { take: number; cursor?: number; since?: string },
): Promise<JobPage> {
  const { gsi1pk } = keys.jobsOfDomainIndex(orgId, domain);
  let startKey: Record<string, unknown> | undefined;
  if (options.cursor !== undefined) {
    const { Items } = await dynamo.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.jobCursorIndex(orgId, options.cursor).gsi2pk },
      }),
    );
    const job = Items?.[0];
    if (!job || job.gsi1pk !== gsi1pk) throw new UnknownCursor(options.cursor);
    startKey = { pk: job.pk, sk: job.sk, gsi1pk: job.gsi1pk, gsi1sk: job.gsi1sk };
  }
  // Sort keys are `<first_seen_at>#<sequence>`; '~' sorts after every digit, so this keeps strictly later times.
  const since = options.since === undefined ? undefined : `${options.since}#~`;
  // Everything after a cursor at or before `since` is older still: the walk is over.
  if (since && startKey && String(startKey.gsi1sk) <= since) return { domain, next: 0, jobs: [] };
  const items: Record<string, unknown>[] = [];
  while (items.length <= options.take) {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: since ? 'gsi1pk = :pk AND gsi1sk > :since' : 'gsi1pk = :pk',
        ExpressionAttributeValues: since ? { ':pk': gsi1pk, ':since': since } : { ':pk': gsi1pk },
        ScanIndexForward: false,
        Limit: options.take + 1 - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  const jobs = items.slice(0, options.take);
  const next = items.length > options.take ? (jobs.at(-1)?.sequence as number) : 0;
  return { domain, next, jobs: jobs.map(toJob) };
}
