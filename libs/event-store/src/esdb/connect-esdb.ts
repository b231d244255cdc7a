import { EventStoreDBClient } from '@eventstore/db-client';
import { EsdbEventStore } from './esdb-event-store';
import { EsdbAccessError, probeEsdb, userOf } from './esdb-probe';

export interface ConnectEsdbOptions {
  /** Budget for the start-up probe. Default 2500 ms. */
  readonly timeoutMs?: number;
}

/**
 * Connects and proves, within timeoutMs, that the server answers and lets the user read `$all` (see
 * probeEsdb). The time bound is needed because against a port that accepts TCP but never speaks
 * gRPC, client calls hang past their own deadlines.
 */
export async function connectEsdb(
  url: string,
  { timeoutMs = 2500 }: ConnectEsdbOptions = {},
): Promise<EsdbEventStore> {
  const shown = redactUrl(url);
  let client: EventStoreDBClient;
  try {
    client = EventStoreDBClient.connectionString(url);
  } catch (error) {
    throw new Error(`Invalid EventStoreDB connection string ${shown}`, { cause: error });
  }
  try {
    await probeEsdb(client, timeoutMs, userOf(url));
  } catch (error) {
    // Best effort: dispose may not hang our caller either.
    void client.dispose().catch(() => undefined);
    if (error instanceof EsdbAccessError) throw error;
    throw new Error(`EventStoreDB unreachable at ${shown}`, { cause: error });
  }
  return new EsdbEventStore(client);
}

/** Hides a password in the connection string, so it never reaches a log. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}
