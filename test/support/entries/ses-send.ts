import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';

/**
 * The mail sender's SES call alone, for test/infra/sdk-schema-keys.test.ts to
 * bundle as a function is bundled and send to a local endpoint.
 */
export async function sendRaw(endpoint: string, raw: string): Promise<string | undefined> {
  const client = new SESv2Client({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  const { MessageId } = await client.send(
    new SendEmailCommand({
      FromEmailAddress: 'replies@example.com',
      Destination: { ToAddresses: ['ann@acme.com'] },
      Content: { Raw: { Data: Buffer.from(raw) } },
    }),
  );
  return MessageId;
}
