import { batchGet, batchPut } from '../db/batch.ts';
import { allocateIds } from '../db/ids.ts';
import { keys } from '../db/keys.ts';
import type { JobInput } from '../schemas/import.ts';
import type { Job } from '../schemas/resources.ts';

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
