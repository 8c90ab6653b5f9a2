import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger (Powertools, JSON). Log records carry ids, counts
 * and error classes; never API keys, secrets, or message bodies.
 */
export const logger = new Logger({ serviceName: 'outreach-public-api' });
