/** An MCP access token by the client-credentials grant, from the stack at `apiUrl`; throws unless it is issued. */
export async function clientCredentialsToken(
  apiUrl: string,
  client: { clientId: string; clientSecret: string },
): Promise<string> {
  const response = await fetch(`${apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  if (response.status !== 200) throw new Error(`POST /oauth/token answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
