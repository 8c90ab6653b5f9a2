import { defineEndpoint } from '#api/http/endpoint.ts';
import { replyEndpoint } from '#schemas/replies.ts';
import { replyToAssignment } from '#use-cases/reply-to-assignment.ts';

/** POST /public/v1/assignments/{id}/reply — records the reply and queues it; 200 once durably queued. */
export const handler = defineEndpoint(replyEndpoint, (input) => replyToAssignment(input));
