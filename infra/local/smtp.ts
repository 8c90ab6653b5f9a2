import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * The local SMTP sink: a real SMTP server on loopback that accepts every
 * message and keeps it (in memory, and as .eml files when given a folder), so
 * the mail sender holds a real SMTP conversation locally and tests can read
 * what was sent. `failNext(n)` makes it refuse the next n messages with a
 * temporary error, to exercise retries.
 */

export interface ReceivedMail {
  from: string | null;
  to: string[];
  raw: string;
  receivedAt: string;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  failNext(count: number): void;
  stop(): Promise<void>;
}

/** Starts the sink on a free loopback port. */
export async function startSmtpSink(options: { saveTo?: string } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  let failures = 0;
  if (options.saveTo) mkdirSync(options.saveTo, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          const error = Object.assign(new Error('Temporary failure (local sink asked to fail)'), {
            responseCode: 451,
          });
          callback(error);
          return;
        }
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          receivedAt: new Date().toISOString(),
        };
        messages.push(mail);
        if (options.saveTo)
          writeFileSync(join(options.saveTo, `${Date.now()}-${messages.length}.eml`), mail.raw);
        callback();
      });
    },
  });
  // Any free port, read back once bound (a port probed free beforehand could be taken meanwhile).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('The SMTP sink did not bind a port');
  const { port } = address;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext(count) {
      failures = count;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
