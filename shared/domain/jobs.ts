import type { JobInput } from '#schemas/import.ts';
import type { Job } from '#schemas/resources.ts';
import { allocateIds } from '#store/ids.ts';
import { type JobPosition, type JobRecord, jobs as storedJobs } from '#store/jobs.ts';
import { UnknownCursor } from './errors.ts';

/**
 * Job openings by company domain. Each job keeps the sequence number it got
 * when first stored; the search's page cursor is that number, so a cursor
 * stays valid however many jobs arrive later.
 */

/** The Job resource of a stored job. */
export function toJob(record: JobRecord): Job {
  return {
    id: record.jobId,
    domain: record.domain,
    title: record.title,
    url: record.url,
    last_seen_at: record.lastSeenAt,
    first_seen_at: record.firstSeenAt,
    status: record.status,
    location: record.location,
    description: record.description,
  };
}

/**
 * Stores jobs (domains already normalized), keeping the sequence number of
 * jobs seen before: BatchGetItem for the known ones, one counter update for the
 * new ones, BatchWriteItem for all.
 */
export async function upsertJobs(orgId: number, jobs: (JobInput & { domain: string })[]): Promise<void> {
  const sequences = await storedJobs.sequencesOf(orgId, [...new Set(jobs.map((job) => job.id))]);
  const newIds = [...new Set(jobs.map((job) => job.id).filter((id) => !sequences.has(id)))];
  const allocated = await allocateIds('job', newIds.length);
  for (const [index, id] of newIds.entries()) sequences.set(id, allocated[index]!);

  // The last occurrence of a job id in the input wins.
  const latest = new Map(jobs.map((job) => [job.id, job]));
  await storedJobs.putAll(
    orgId,
    [...latest.values()].map((job) => ({
      jobId: job.id,
      sequence: sequences.get(job.id)!,
      domain: job.domain,
      title: job.title,
      url: job.url,
      firstSeenAt: job.first_seen_at,
      lastSeenAt: job.last_seen_at,
      status: job.status,
      location: job.location,
      description: job.description,
    })),
  );
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
  let after: JobPosition | undefined;
  if (options.cursor !== undefined) {
    const position = await storedJobs.positionOf(orgId, domain, options.cursor);
    if (!position) throw new UnknownCursor(options.cursor);
    after = position;
  }
  const found = await storedJobs.firstOfDomain(orgId, domain, options.take + 1, {
    after,
    since: options.since,
  });
  const page = found.slice(0, options.take);
  const next = found.length > options.take ? page.at(-1)!.sequence : 0;
  return { domain, next, jobs: page.map(toJob) };
}
