import * as z from 'zod/mini';

// The item schemas of jobs.ts: what its store reads (and checks) items with.

export const jobItem = z.object({
  jobId: z.string(),
  sequence: z.number(),
  domain: z.string(),
  title: z.string(),
  url: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  status: z.string(),
  location: z.string(),
  description: z.string(),
});

export type JobRecord = z.infer<typeof jobItem>;

/** Where a job sits in its domain's listing: a page that continues after it starts there. */
export const jobPosition = z.object({
  pk: z.string(),
  sk: z.string(),
  gsi1pk: z.string(),
  gsi1sk: z.string(),
});

export type JobPosition = z.infer<typeof jobPosition>;

export const knownJob = z.object({ jobId: z.string(), sequence: z.number() });
