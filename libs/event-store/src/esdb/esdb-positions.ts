import {
  END,
  streamNameFilter,
  type EventStoreDBClient,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { Position } from '../event-store.port';
import { rawPosition } from './esdb-mapping';
import { readAllPage } from './esdb-reads';
import { withRetry, type RetryPolicy } from './esdb-retry';

/** What servers before 22.6 send for a commit position they do not know: 2^64-1. */
export const UNKNOWN_COMMIT_POSITION = 18446744073709551615n;
/** Records per backwards `$all` page when looking positions up. */
const LOOKUP_PAGE = 200;

/** The position, unless it is missing or the "not known" value of servers before 22.6. */
export function knownPosition(position: Position | undefined): Position | undefined {
  return position && position.commit !== UNKNOWN_COMMIT_POSITION ? position : undefined;
}

/**
 * `$all` positions of the given events of one stream, newest first, found by reading `$all`
 * backwards filtered (server-side) to the stream: only servers that do not send positions with
 * appends or stream reads need it, and `$all` reads always carry them.
 */
export async function positionsFromAll(
  client: EventStoreDBClient,
  retry: RetryPolicy,
  streamId: string,
  ids: ReadonlySet<string>,
): Promise<Map<string, Position>> {
  const found = new Map<string, Position>();
  const filter = streamNameFilter({ prefixes: [streamId] });
  let before: ReadPosition = END;
  for (;;) {
    const from: ReadPosition = before;
    const page: ResolvedEvent[] = await withRetry(retry, () =>
      readAllPage(client, {
        direction: 'backwards',
        fromPosition: from,
        maxCount: LOOKUP_PAGE,
        filter,
      }),
    );
    for (const resolved of page) {
      const event = resolved.event;
      const position = rawPosition(resolved);
      if (!event || !position || event.streamId !== streamId) continue;
      if (ids.has(event.id)) found.set(event.id, position);
      if (found.size === ids.size) return found;
    }
    const last = page[page.length - 1];
    const lastPosition: Position | undefined = last && rawPosition(last);
    if (page.length < LOOKUP_PAGE || !lastPosition) return found;
    before = lastPosition;
  }
}
