import { MAX_IDEMPOTENCY_KEY } from '#definitions/raw-operations.ts';
import { normalizeEmail } from '#domain/contacts.ts';
import { IdempotencyKeyMalformed } from '#domain/errors.ts';
import { type ContactError, type PushContact, pushContacts } from '#domain/raw-push.ts';
import { count } from '#platform/observability.ts';
import { rawContact } from '#schemas/compiled/raw.ts';
import { BODY_INPUT, describeIssue } from '#schemas/issues.ts';
import type { pushContactsEndpoint } from '#schemas/raw.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof pushContactsEndpoint;

/** The push's validated envelope, and the Idempotency-Key the client sent with it, if any. */
export type PushRawContactsInput = OperationInput<Endpoint> & { readonly idempotencyKey?: string };

/**
 * 1. An Idempotency-Key, when given, is 1 to 255 characters (IdempotencyKeyMalformed); the same key
 *    with the same request within 24 hours replays the first response and writes nothing (with
 *    another request it is IdempotencyKeyReused, while the first still runs IdempotencyKeyInUse).
 * 2. Validate each contact on its own: one that fails is reported in `errors` (its index, the email
 *    it was sent with, and its first issue naming the field) and the others go on.
 * 3. Normalize the emails; a repeated email is pushed once, as it first appears.
 * 4. Judge each contact and push the eligible ones (all with `skipIneligible: false`) into the target
 *    sequence (CampaignNotFound, SequenceNotInCampaign; ContactsKeptChanging after 8 judgements).
 * 5. Return the upsert result: created, updated, skipped with their reasons, errors.
 *
 * POST /public/v1/campaigns/{id}/raw/contacts.
 */
export async function pushRawContacts({
  orgId,
  path,
  body,
  idempotencyKey,
}: PushRawContactsInput): Promise<OperationOutput<Endpoint>> {
  if (
    idempotencyKey !== undefined &&
    (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
  ) {
    throw new IdempotencyKeyMalformed(MAX_IDEMPOTENCY_KEY);
  }
  const push = async (): Promise<OperationOutput<Endpoint>> => {
    const errors: ContactError[] = [];
    const contacts = new Map<string, PushContact>();
    for (const [index, raw] of body.contacts.entries()) {
      const parsed = rawContact.safeParse(raw);
      if (!parsed.success) {
        const email = (raw as { email?: unknown } | null)?.email;
        errors.push({
          index,
          email: typeof email === 'string' ? email : null,
          // Worded by the contact's zod schema, loaded once a contact is refused.
          message: describeIssue(BODY_INPUT, await rawContact.refusal(raw)),
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
  };
  if (idempotencyKey === undefined) return push();
  // Loaded by the pushes that send a key only: the others need none of the claims and replays.
  const { requestFingerprint, withIdempotency } = await import('#domain/idempotency.ts');
  return withIdempotency(orgId, idempotencyKey, requestFingerprint(`raw-push:${path.id}`, body), push);
}
