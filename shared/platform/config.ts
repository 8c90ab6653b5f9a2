/**
 * Configuration read from the environment. Every value the service needs is read
 * here, once, so a missing setting fails at module load rather than mid-request.
 */

/** Returns the value of a required environment variable or throws naming it. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}

/** Returns an optional environment variable parsed as a positive integer, or the fallback. */
export function integerEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`Environment variable ${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Name of the single DynamoDB table (set by CDK on Lambda and by the local stack). */
export const tableName = (): string => requiredEnv('TABLE_NAME');

/** Mail settings: the sender used before any mailbox has written to a contact, and the Message-ID domain. */
export const mailSettings = () => ({
  defaultFrom: process.env.MAIL_DEFAULT_FROM ?? 'outreach@localhost',
  messageIdDomain: process.env.MAIL_MESSAGE_ID_DOMAIN ?? 'outreach.local',
});
