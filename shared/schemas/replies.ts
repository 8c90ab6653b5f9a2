import { z } from 'zod';
import type { EndpointSchemas } from './endpoint.ts';
import { emailAddress, idParam } from './params.ts';

/** At most this many recipients across to, cc and bcc. */
export const MAX_RECIPIENTS = 50;
/** The largest reply body, in characters. */
export const MAX_REPLY_BODY = 100_000;

/** A comma-separated list of email addresses, as an array; any invalid one is 400. */
const addressList = z
  .string()
  .max(10_000)
  .transform((value, context) => {
    const addresses = value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (addresses.length === 0) {
      context.addIssue({ code: 'custom', message: 'must name at least one email address' });
      return z.NEVER;
    }
    for (const candidate of addresses) {
      if (!emailAddress.safeParse(candidate).success) {
        context.addIssue({ code: 'custom', message: `${JSON.stringify(candidate)} is not an email address` });
        return z.NEVER;
      }
    }
    return addresses;
  });

/** POST /public/v1/assignments/{id}/reply */
export const replyEndpoint = {
  path: z.object({ id: idParam.meta({ description: 'The assignment id.' }) }),
  body: z
    .object({
      body: z
        .string()
        .min(1, 'must not be empty')
        .max(MAX_REPLY_BODY, `must be at most ${MAX_REPLY_BODY} characters`),
      plain_text: z.boolean().default(false),
      to: addressList.optional(),
      cc: addressList.optional(),
      bcc: addressList.optional(),
    })
    .refine(
      (body) => (body.to?.length ?? 1) + (body.cc?.length ?? 0) + (body.bcc?.length ?? 0) <= MAX_RECIPIENTS,
      { message: `at most ${MAX_RECIPIENTS} recipients in all`, path: ['to'] },
    ),
  response: z.object({ success: z.boolean() }),
} satisfies EndpointSchemas;
