import type { APIGatewayProxyEvent } from 'aws-lambda';
import { configuration } from '#platform/config.ts';

/**
 * Where the service is reachable, for documents that name their own URLs
 * (OAuth metadata and the resource tokens are bound to, the OpenAPI document,
 * the reference page, the consent form).
 *
 * Never from the client's `Host` or `X-Forwarded-*` headers: a client could
 * otherwise put its own origin into the consent form's action, the reference
 * page's script source, the document's servers or a token's audience.
 * The configured `publicBaseUrl` (PUBLIC_BASE_URL, a custom domain) wins; otherwise the request context's
 * `domainName`, which API Gateway sets to the domain it routed the request
 * through (an execute-api host keeps the stage in the path:
 * `https://{api}.execute-api.{region}.amazonaws.com/{stage}`) and which the
 * local gateway sets to its own listening address. docs/mcp.md explains
 * discovery under a stage path.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent): string {
  const configured = configuration().publicBaseUrl;
  if (configured) return configured.replace(/\/$/, '');
  const domain = event.requestContext?.domainName;
  if (!domain || !DOMAIN_NAME.test(domain)) throw new Error('The request context names no valid domain');
  const protocol = LOOPBACK.test(domain) ? 'http' : 'https';
  const stage = domain.includes('.execute-api.') && event.requestContext.stage;
  return `${protocol}://${domain}${stage && STAGE.test(stage) ? `/${stage}` : ''}`;
}

/** A host name (letters, digits, dots and hyphens) with an optional port. */
const DOMAIN_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::\d{1,5})?$/;
const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost)(?::\d{1,5})?$/;
/** API Gateway's stage names. */
const STAGE = /^[A-Za-z0-9_-]{1,128}$/;
