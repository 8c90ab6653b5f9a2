import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Transporter } from 'nodemailer';
import type { Configuration } from './config.ts';
import { awsClientOptions, perConfiguration, serviceAwsClient } from './configured.ts';

/**
 * Where composed messages go: Amazon SES on AWS, an SMTP server locally (the
 * local stack's sink). Which one is configuration (`mail.transport`), and the
 * message is the same raw MIME either way.
 */

export interface Envelope {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
}

export type MailTransport = (envelope: Envelope, raw: Buffer) => Promise<void>;

function sesTransport(aws: Configuration['aws']): MailTransport {
  const ses = serviceAwsClient(new SESv2Client({ maxAttempts: 2, ...awsClientOptions(aws) }));
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

/**
 * SMTP through nodemailer, loaded on first send: with `import()` the bundler
 * puts nodemailer in a chunk of its own that a Lambda never loads, since on
 * AWS the transport is SES; only the local stack's SMTP sink needs it.
 */
function smtpTransport(url: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  return async (envelope, raw) => {
    transporter ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 15_000,
      }),
    );
    await (await transporter).sendMail({
      envelope: { from: envelope.from, to: [...envelope.to, ...envelope.cc, ...envelope.bcc] },
      raw,
    });
  };
}

/** The transport the configuration names: SES (the default) or SMTP to `mail.smtpUrl`. */
export function createMailTransport(config: Configuration): MailTransport {
  return config.mail.transport === 'smtp' && config.mail.smtpUrl !== undefined
    ? smtpTransport(config.mail.smtpUrl)
    : sesTransport(config.aws);
}

/** The process's transport, built on first use from the configuration. */
export const configuredMailTransport = perConfiguration(
  (config) => [config.mail.transport, config.mail.smtpUrl, config.aws.region, config.aws.credentials],
  createMailTransport,
);
