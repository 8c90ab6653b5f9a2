import { defineEndpoint, describeContactIssue } from '#api/http/endpoint.ts';
import { BadRequestError } from '#api/http/errors.ts';
import { normalizeEmail } from '#domain/contacts.ts';
import { requestFingerprint, withIdempotency } from '#domain/idempotency.ts';
import { type ContactError, type PushContact, pushContacts } from '#domain/raw-push.ts';
import { count } from '#platform/observability.ts';
import { MAX_IDEMPOTENCY_KEY, pushContactsEndpoint, rawContact } from '#schemas/raw.ts';

/**
 * POST /public/v1/campaigns/{id}/raw/contacts — validates each contact on its
 * own (bad ones are reported in `errors`), processes a repeated email once,
 * and pushes the rest; an `Idempotency-Key` replays the first response.
 */
export const handler = defineEndpoint(pushContactsEndpoint, async ({ orgId, path, body, headers }) => {
  const idempotencyKey = headers['idempotency-key'];
  if (
    idempotencyKey !== undefined &&
    (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
  ) {
    throw new BadRequestError(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY} characters`);
  }
  const fingerprint = requestFingerprint(`raw-push:${path.id}`, body);
  return withIdempotency(orgId, idempotencyKey, fingerprint, async () => {
    const errors: ContactError[] = [];
    const contacts = new Map<string, PushContact>();
    for (const [index, raw] of body.contacts.entries()) {
      const parsed = rawContact.safeParse(raw);
      if (!parsed.success) {
        const email = (raw as { email?: unknown } | null)?.email;
        errors.push({
          index,
          email: typeof email === 'string' ? email : null,
          message: describeContactIssue(parsed.error),
        });
        continue;
      }
      const email = normalizeEmail(parsed.data.email);
      if (!contacts.has(email)) contacts.set(email, { ...parsed.data, email });
    }
    const result = await pushContacts(orgId, path.id, [...contacts.values()], errors, {
      skipIneligible: body.skipIneligible,
      triggerIntake: body.triggerIntake,
      bypassCooldownOtherSequences: body.bypassCooldownOtherSequences,
      bypassGlobalExcluded: body.bypassGlobalExcluded,
      takeoverUnapproved: body.takeoverUnapproved,
      sequenceId: body.sequenceId,
    });
    count('ContactsPushed', result.created + result.updated);
    count('ContactsSkipped', result.skipped);
    count('ContactsInvalid', errors.length);
    return result;
  });
});
