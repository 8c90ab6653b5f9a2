import { replyToAssignment as reply } from '#domain/replies.ts';
import { configuration } from '#platform/config.ts';
import type { replyEndpoint } from '#schemas/replies.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof replyEndpoint;

/**
 * 1. Render the body (plain text escaped into HTML) within the size a message item holds
 *    (ReplyNotSendable otherwise).
 * 2. Read the assignment with its contact (AssignmentNotFound when it is not the organization's).
 * 3. Address the reply: `to` (default: the contact's email; ReplyNotSendable without one), `cc`,
 *    `bcc`, from the mailbox that last wrote to the contact (else the deployment's sender), in the
 *    thread of its last message.
 * 4. Record it as a sent message, with the counters and a First Touch when it is the first, and queue
 *    it for the mail sender, in one transaction (read again and retried when the assignment changed).
 * 5. Return success once it is durably queued.
 *
 * POST /public/v1/assignments/{id}/reply.
 */
export async function replyToAssignment({
  orgId,
  path,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  await reply(
    orgId,
    path.id,
    { body: body.body, plainText: body.plain_text, to: body.to, cc: body.cc, bcc: body.bcc },
    configuration().mail,
  );
  return { success: true };
}
