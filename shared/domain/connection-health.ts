import { logger } from '#platform/logger.ts';
import { count } from '#platform/observability.ts';
import { ProviderApiError, type ProviderHttp } from '#providers/contract.ts';
import {
  type ConnectionHealth,
  HEALTH_WRITE_INTERVAL_MS,
  writeConnectionHealth,
} from '#store/connection-health.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';

/**
 * A provider connection's health (docs/providers.md, Connection health): `ok`
 * while the provider answers its calls with the key accepted, `failing` from a
 * refused key (401/403) or a provider that cannot be reached (a network
 * failure, a timeout, a 5xx, 429s that go on) until a call succeeds again. A
 * lead or a campaign the provider refuses (400, 404, 409, 422) says nothing
 * against the connection: the provider answered and took the key. The calls of
 * enrollment, stops and replies keep it up to date through their transport,
 * at most one write a minute per connection; an operator's check writes it
 * always.
 */

/** 429s in a row, each waited out, after which a connection counts as failing: the provider keeps refusing it. */
export const RATE_LIMITED_IN_A_ROW = 3;

/** What one provider call says of the connection: failing with why, ok, or nothing (a 429 the pace deals with). */
type CallVerdict = { status: 'ok' } | { status: 'failing'; message: string } | null;

/**
 * Why a connection fails, from the provider's status (null: no answer at all: the transport's timeout,
 * a connection failure, an address refused). It names the provider and the status only, never the
 * key, a lead or a body: the resource shows it to a read key.
 */
export function failureMessage(providerName: string, status: number | null): string {
  if (status === null) return `${providerName} could not be reached`;
  if (status === 401 || status === 403) return `${providerName} refused this API key (${status})`;
  if (status === 429) return `${providerName} kept rate-limiting requests (HTTP 429)`;
  return `${providerName} failed (HTTP ${status})`;
}

/** The verdict of a provider's answer: 401/403 and 5xx fail, 429s only in a row, any other answer is ok. */
function verdictOfStatus(providerName: string, status: number, rateLimitedInARow: number): CallVerdict {
  const fails =
    status === 401 ||
    status === 403 ||
    status >= 500 ||
    (status === 429 && rateLimitedInARow >= RATE_LIMITED_IN_A_ROW);
  if (fails) return { status: 'failing', message: failureMessage(providerName, status) };
  return status === 429 ? null : { status: 'ok' };
}

/**
 * Writes a connection's health and, when it turns failing, counts it
 * (`ProviderConnectionFailing`, which raises the alarm of that name). With
 * `unlessRecent` the write is held back when the status is unchanged and the
 * last one is less than a minute old (a condition on `healthWrittenAt`).
 */
export async function recordConnectionHealth(
  connection: Pick<ProviderConnectionRecord, 'orgId' | 'connectionId' | 'provider'>,
  health: ConnectionHealth,
  options: { unlessRecent: boolean },
): ReturnType<typeof writeConnectionHealth> {
  const written = await writeConnectionHealth(connection.orgId, connection.connectionId, health, options);
  if (written?.written && health.status === 'failing' && written.previous !== 'failing') {
    count('ProviderConnectionFailing');
    logger.warn('A provider connection is failing', {
      orgId: connection.orgId,
      connectionId: connection.connectionId,
      provider: connection.provider,
      reason: health.message,
    });
  }
  return written;
}

/**
 * The connection's transport with its health kept: every answer and every
 * failure to answer is judged, and a verdict is written when it changes the
 * status or the last write is a minute old. What this process last knew (the
 * record read when the session opened, then its own writes) spares the
 * request in between; the write's condition holds the bound across consumers.
 * A health write that fails is logged, not thrown: the call it judged
 * happened, and a retry of the work would repeat it at the provider.
 */
export function healthTrackedHttp(
  http: ProviderHttp,
  connection: ProviderConnectionRecord,
  providerName: string,
): ProviderHttp {
  let known = {
    status: connection.status,
    writtenAt: connection.healthWrittenAt ? Date.parse(connection.healthWrittenAt) : null,
  };
  let rateLimitedInARow = 0;
  const judge = async (verdict: CallVerdict) => {
    if (verdict === null) return;
    const now = Date.now();
    if (
      verdict.status === known.status &&
      known.writtenAt !== null &&
      now - known.writtenAt < HEALTH_WRITE_INTERVAL_MS
    )
      return;
    const at = new Date(now).toISOString();
    const health: ConnectionHealth =
      verdict.status === 'ok' ? { status: 'ok', at } : { status: 'failing', at, message: verdict.message };
    try {
      const written = await recordConnectionHealth(connection, health, { unlessRecent: true });
      if (written?.written) known = { status: verdict.status, writtenAt: now };
      else if (written)
        known = {
          status: written.status,
          writtenAt: written.healthWrittenAt ? Date.parse(written.healthWrittenAt) : null,
        };
    } catch (error) {
      logger.warn('The connection health could not be written', {
        orgId: connection.orgId,
        connectionId: connection.connectionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  return async (request) => {
    let response: Awaited<ReturnType<ProviderHttp>>;
    try {
      response = await http(request);
    } catch (error) {
      if (error instanceof ProviderApiError) {
        rateLimitedInARow = 0;
        await judge({ status: 'failing', message: failureMessage(providerName, null) });
      }
      throw error;
    }
    rateLimitedInARow = response.status === 429 ? rateLimitedInARow + 1 : 0;
    await judge(verdictOfStatus(providerName, response.status, rateLimitedInARow));
    return response;
  };
}
