import { defineHttpHandler } from '#api/http/endpoint.ts';
import { tokenRequestOf, tokenResponse } from '#api/oauth/token.ts';
import { issueOAuthToken } from '#use-cases/issue-oauth-token.ts';

/** The OAuth token endpoint (shared/use-cases/issue-oauth-token.ts; RFC 6749 answers: shared/api/oauth/token.ts). */
export const handler = defineHttpHandler(async (event) => {
  const request = tokenRequestOf(event);
  if ('refusal' in request) return request.refusal;
  return tokenResponse(request, await issueOAuthToken(request));
});
