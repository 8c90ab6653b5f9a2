import { redriveDeadLetters } from '#platform/dead-letters.ts';

/**
 * 1. Move every message of the webhooks dead-letter queue back to the webhooks queue, where each
 *    delivery starts a fresh retry schedule.
 * 2. Return how many were moved.
 *
 * `outreach-admin webhook redrive`.
 */
export async function redriveWebhooks(): Promise<{ moved: number }> {
  return redriveDeadLetters('webhooks');
}
