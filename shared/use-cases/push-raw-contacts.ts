import { normalizeEmail } from '#domain/contacts.ts';
import { type ContactError, type PushContact, pushContacts } from '#domain/raw-push.ts';
import { count } from '#platform/observability.ts';
import { BODY_INPUT, describeIssue } from '#schemas/issues.ts';
import { type pushContactsEndpoint, rawContact } from '#schemas/raw.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof pushContactsEndpoint;

/**
 * (An `Idempotency-Key` is the endpoint wrapper's, as on every write: shared/api/http/endpoint.ts.)
 *
 * 1. Validate each contact on its own: one that fails is reported in `errors` (its index, the email
 *    it was sent with, and its first issue naming the field) and the others go on.
 * 2. Normalize the emails; a repeated email is pushed once, as it first appears.
 * 3. Judge each contact and push the eligible ones (all with `skipIneligible: false`) into the target
 *    sequence (CampaignNotFound, SequenceNotInCampaign; ContactsKeptChanging after 8 judgements).
 * 4. Return the upsert result: created, updated, skipped with their reasons, errors.
 *
 * POST /public/v1/campaigns/{id}/raw/contacts.
 */
export async function pushRawContacts({
  orgId,
  path,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  const errors: ContactError[] = [];
  const contacts = new Map<string, PushContact>();
  for (const [index, raw] of body.contacts.entries()) {
    const parsed = rawContact.safeParse(raw);
    if (!parsed.success) {
      const email = (raw as { email?: unknown } | null)?.email;
      errors.push({
        index,
        email: typeof email === 'string' ? email : null,
        message: describeIssue(BODY_INPUT, parsed.error),
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
}
