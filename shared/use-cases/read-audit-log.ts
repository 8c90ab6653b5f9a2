import { type AuditEntry, readAuditLog as read } from '#domain/audit-log.ts';
import type { ForOrganization } from './operation.ts';

/** A page of the organization's audit log, newest first (AuditCursorInvalid). The audit log page. */
export function readAuditLog(
  input: ForOrganization & { take: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  return read(input.orgId, input.take, input.cursor);
}
