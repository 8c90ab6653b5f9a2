import { randomBytes } from 'node:crypto';
import { type AuditEntryItem, auditLog } from '#store/audit-log.ts';
import { AuditCursorInvalid } from './errors.ts';

/**
 * The audit log of an organization: every change made in the dashboard and
 * every membership change of the CLI, with who made it. An entry is written
 * after its change succeeded (a change that fails leaves none); a year later
 * it expires.
 */

/** Who changed something: a member (by email), or the operator CLI. */
export type Actor = { email: string } | 'operator';

export type AuditEntry = Omit<AuditEntryItem, 'entryId'>;

const actorName = (actor: Actor) => (actor === 'operator' ? 'operator (CLI)' : actor.email);

export async function recordChange(
  orgId: number,
  actor: Actor,
  action: string,
  target: string,
): Promise<void> {
  await auditLog.append(orgId, {
    entryId: randomBytes(6).toString('hex'),
    at: new Date().toISOString(),
    actor: actorName(actor),
    action,
    target,
  });
}

/** A page of the log, newest first; the cursor is the previous page's `next`. */
export async function readAuditLog(
  orgId: number,
  take: number,
  cursor?: string,
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  let after: string | undefined;
  if (cursor !== undefined) {
    after = Buffer.from(cursor, 'base64url').toString('utf8');
    // A cursor is the sort key of an entry: `<ISO time>#<hex id>`.
    if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9a-f]{12}$/.test(after)) throw new AuditCursorInvalid();
  }
  const page = await auditLog.newestFirst(orgId, take, after);
  return {
    entries: page.entries.map(({ entryId: _entryId, ...entry }) => entry),
    next: page.last === null ? null : Buffer.from(page.last, 'utf8').toString('base64url'),
  };
}
