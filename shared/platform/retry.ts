/**
 * Exponential backoff with jitter for queue retries: attempt n waits about
 * base·2^(n−1) seconds (between half and all of it, so retries of many
 * messages spread out), never more than `cap`.
 */
export function backoffSeconds(attempt: number, baseSeconds: number, capSeconds: number): number {
  const ceiling = Math.min(capSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));
  return Math.max(0, Math.round(ceiling / 2 + Math.random() * (ceiling / 2)));
}
