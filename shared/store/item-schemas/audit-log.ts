import * as z from 'zod/mini';

// The item schemas of audit-log.ts: what its store reads (and checks) items with.

export const auditEntryItem = z.object({
  entryId: z.string(),
  at: z.string(),
  /** Who: a member's email, or `operator` for the CLI. */
  actor: z.string(),
  /** What, as a short verb phrase (`api-key.create`). */
  action: z.string(),
  /** What it was done to, in words (`key 12 "CI"`). */
  target: z.string(),
});

export type AuditEntryItem = z.infer<typeof auditEntryItem>;
