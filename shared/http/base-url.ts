import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * Where the service is reachable, for documents that name their own URLs
 * (OAuth metadata, the OpenAPI document, the reference page). `PUBLIC_BASE_URL` (a custom domain) wins; otherwise the base is derived
 * from the request: an execute-api host keeps the stage in the path
 * (`https://{api}.execute-api.{region}.amazonaws.com/{stage}`), any other host
 * is taken as is. docs/mcp.md explains discovery under a stage path.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent): string {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const host = headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const protocol =
    headers['x-forwarded-proto'] ??
    (host.startsWith('127.0.0.1') || host.startsWith('localhost') ? 'http' : 'https');
  const stage =
    host.includes('.execute-api.') && event.requestContext?.stage ? `/${event.requestContext.stage}` : '';
  return `${protocol}://${host}${stage}`;
}
