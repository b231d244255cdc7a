import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import { EsdbEventStore } from './esdb-event-store';

export interface ConnectEsdbOptions {
  /** Budget for the start-up probe. Default 2500 ms. */
  readonly timeoutMs?: number;
}

/**
 * Connects and proves the server answers, within timeoutMs. Needed because against a port that
 * accepts TCP but never speaks gRPC, client calls hang past their own deadlines.
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
  const probe = client.readAll({
    direction: BACKWARDS,
    fromPosition: END,
    maxCount: 1,
    deadline: timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        for await (const _ of probe) break;
      })(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    // Best effort: neither call may hang our caller.
    void probe.cancel().catch(() => undefined);
    void client.dispose().catch(() => undefined);
    throw new Error(`EventStoreDB unreachable at ${shown}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return new EsdbEventStore(client);
}

/** Hides a password in the connection string, so it never reaches a log. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}
