import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleBuildOptions } from '../../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/*
 * The bundles read the SDK's schema modules with literal keys
 * (infra/constructs/sdk-schema-keys.ts). Built as a function is built, the
 * SES client keeps only what SendEmail needs, and still sends the request
 * SES's API documents: POST /v2/email/outbound-emails with the raw message.
 */

const ENTRY = resolve(PROJECT_ROOT, 'test/support/entries/ses-send.ts');

async function bundled(): Promise<{
  sendRaw: (endpoint: string, raw: string) => Promise<string>;
  text: string;
}> {
  const outdir = mkdtempSync(join(tmpdir(), 'sdk-schema-keys-'));
  await build({ ...bundleBuildOptions(ENTRY, outdir), entryPoints: { index: ENTRY } });
  const text = [
    join(outdir, 'index.mjs'),
    ...readdirSync(join(outdir, 'chunks')).map((file) => join(outdir, 'chunks', file)),
  ]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return { ...(await import(pathToFileURL(join(outdir, 'index.mjs')).href)), text };
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolveBody) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => resolveBody(body));
  });

describe("the SDK's schema modules in a bundle", () => {
  it('keep only the operations a function sends, which still go out as the API documents', async () => {
    const { sendRaw, text } = await bundled();
    // Other operations of SESv2 (and their HTTP paths) are not in the bundle.
    expect(text).not.toContain('/v2/email/outbound-bulk-emails');
    expect(text).not.toContain('/v2/email/reputation/entities');

    const received: { method?: string; url?: string; body: string }[] = [];
    const server = createServer(async (request, response) => {
      received.push({ method: request.method, url: request.url, body: await bodyOf(request) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ MessageId: 'message-1' }));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await sendRaw(`http://127.0.0.1:${port}`, 'Subject: hi\r\n\r\nHello')).toBe('message-1');
    } finally {
      server.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v2/email/outbound-emails' });
    expect(JSON.parse(received[0]!.body)).toEqual({
      FromEmailAddress: 'replies@example.com',
      Destination: { ToAddresses: ['ann@acme.com'] },
      Content: { Raw: { Data: Buffer.from('Subject: hi\r\n\r\nHello').toString('base64') } },
    });
  });
});
