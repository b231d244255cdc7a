import {
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import type { EventFilter } from '../event-store.port';

/**
 * The port's EventFilter as the server's filter, for subscriptions and reads. The server takes one
 * filter (types OR stream prefixes), so we send the most selective one and re-check everything
 * client-side with matchesFilter. Without a filter we still exclude system events.
 */
export function toServerFilter(
  filter: EventFilter | undefined,
  onCheckpoint?: (position: Position) => void,
): Filter {
  const checkpointReached = onCheckpoint
    ? (_subscription: unknown, position: Position): void => onCheckpoint(position)
    : undefined;
  const extra = checkpointReached ? { checkpointReached } : {};
  const types = filter?.eventTypes ?? [];
  const prefixes = filter?.streamPrefixes ?? [];
  if (types.length > 0) {
    // Exact types: the server's type "prefixes" would also match UserCreatedV2 for UserCreated.
    return eventTypeFilter({ regex: exactTypesRegex(types), ...extra });
  }
  if (prefixes.length > 0) return streamNameFilter({ prefixes: [...prefixes], ...extra });
  return excludeSystemEvents(extra);
}

/** `^(?:A|B)$` with each type escaped: the server matches the regex anywhere in the type. */
export function exactTypesRegex(types: readonly string[]): string {
  return `^(?:${types.map(escapeRegex).join('|')})$`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
