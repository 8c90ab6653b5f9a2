import { defineEndpoint } from '#api/http/endpoint.ts';
import { replyToAssignment } from '#domain/replies.ts';
import { mailSettings } from '#platform/config.ts';
import { replyEndpoint } from '#schemas/replies.ts';

const settings = mailSettings();

/** POST /public/v1/assignments/{id}/reply — records the reply and queues it; 200 once durably queued. */
export const handler = defineEndpoint(replyEndpoint, async ({ orgId, path, body }) => {
  await replyToAssignment(
    orgId,
    path.id,
    { body: body.body, plainText: body.plain_text, to: body.to, cc: body.cc, bcc: body.bcc },
    settings,
  );
  return { success: true };
});
