import { TransactionConflictError } from './transactions.ts';

/**
 * The one retry of optimistic concurrency: a transaction that lost a race (to
 * a concurrent write of the same item, or because a version it expected moved
 * on) is tried again after a random wait that doubles with each try (full
 * jitter), so colliding writers spread out instead of colliding again.
 */

/** A transaction cancelled only by concurrent transactions on its items: none of its conditions failed. */
export const lostRace = (error: TransactionConflictError): boolean => error.failed.size === 0;

export interface ConflictRetry {
  /** Tries in all, the first included; the last try's conflict propagates. */
  attempts: number;
  /** The wait after try n (0-based) is random in [0, baseDelayMs·2^n); 0 tries again at once. */
  baseDelayMs: number;
  /**
   * Which conflicts are tried again; `lostRace` unless given. An operation that
   * re-reads what it writes from each try can retry failed conditions as well.
   */
  retryIf?: (error: TransactionConflictError) => boolean;
}

/** Waits a random time in [0, baseDelayMs·2^attempt): full jitter. */
export const conflictDelay = (attempt: number, baseDelayMs: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * baseDelayMs * 2 ** attempt));

/**
 * Runs `operation` (given its 0-based try) and, while it throws a
 * TransactionConflictError that `retryIf` accepts, waits and runs it again, up
 * to `attempts` tries. Any other error, and the conflict of the last try,
 * propagates unchanged.
 */
export async function retryOnConflict<T>(
  operation: (attempt: number) => Promise<T>,
  options: ConflictRetry,
): Promise<T> {
  const retryIf = options.retryIf ?? lostRace;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (
        !(error instanceof TransactionConflictError) ||
        !retryIf(error) ||
        attempt + 1 >= options.attempts
      ) {
        throw error;
      }
      if (options.baseDelayMs > 0) await conflictDelay(attempt, options.baseDelayMs);
    }
  }
}
