import {
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import type { EventFilter } from '../event-store.port';

/**
 * Server-side filter for a subscription. The server takes one filter (types OR stream prefixes), so
 * we send the most selective one and re-check everything client-side with matchesFilter. Without a
 * filter we still exclude system events.
 */
export function toServerFilter(
  filter: EventFilter | undefined,
  onCheckpoint: (position: Position) => void,
): Filter {
  const checkpointReached = (_subscription: unknown, position: Position): void =>
    onCheckpoint(position);
  const types = filter?.eventTypes ?? [];
  const prefixes = filter?.streamPrefixes ?? [];
  if (types.length > 0) {
    // Exact types: the server's type "prefixes" would also match UserCreatedV2 for UserCreated.
    return eventTypeFilter({
      regex: `^(?:${types.map(escapeRegex).join('|')})$`,
      checkpointReached,
    });
  }
  if (prefixes.length > 0) return streamNameFilter({ prefixes: [...prefixes], checkpointReached });
  return excludeSystemEvents({ checkpointReached });
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
