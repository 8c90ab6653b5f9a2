import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { createTransport } from 'nodemailer';
import { requiredEnv } from './config.ts';
import { tracer } from './observability.ts';

/**
 * Where composed messages go: Amazon SES on AWS, an SMTP server locally (the
 * local stack's sink). Which one is configuration (`MAIL_TRANSPORT`), and the
 * message is the same raw MIME either way.
 */

export interface Envelope {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
}

export type MailTransport = (envelope: Envelope, raw: Buffer) => Promise<void>;

function sesTransport(): MailTransport {
  const ses = tracer.captureAWSv3Client(new SESv2Client({ maxAttempts: 2 }));
  return async (envelope, raw) => {
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: envelope.from,
        Destination: { ToAddresses: envelope.to, CcAddresses: envelope.cc, BccAddresses: envelope.bcc },
        Content: { Raw: { Data: raw } },
      }),
    );
  };
}

function smtpTransport(url: string): MailTransport {
  const transporter = createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  });
  return async (envelope, raw) => {
    await transporter.sendMail({
      envelope: { from: envelope.from, to: [...envelope.to, ...envelope.cc, ...envelope.bcc] },
      raw,
    });
  };
}

/** The transport the environment configures: `MAIL_TRANSPORT=ses` (default) or `smtp` with `SMTP_URL`. */
export function transportFromEnvironment(): MailTransport {
  return process.env.MAIL_TRANSPORT === 'smtp' ? smtpTransport(requiredEnv('SMTP_URL')) : sesTransport();
}
