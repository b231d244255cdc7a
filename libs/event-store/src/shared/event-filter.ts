import type { EventFilter, RecordedEvent } from '../event-store.port';

/**
 * In-process form of `EventFilter`. Both parts must match when both are given; an absent or empty
 * list does not constrain (so `{ eventTypes: [] }` means "every type").
 */
export function matchesFilter(
  event: Pick<RecordedEvent, 'type' | 'streamId'>,
  filter: EventFilter | undefined,
): boolean {
  if (!filter) return true;
  const { eventTypes, streamPrefixes } = filter;
  if (eventTypes && eventTypes.length > 0 && !eventTypes.includes(event.type)) return false;
  if (
    streamPrefixes &&
    streamPrefixes.length > 0 &&
    !streamPrefixes.some((p) => event.streamId.startsWith(p))
  ) {
    return false;
  }
  return true;
}

/** True when the filter actually constrains something. */
export function isActiveFilter(filter: EventFilter | undefined): filter is EventFilter {
  return Boolean(
    filter && ((filter.eventTypes?.length ?? 0) > 0 || (filter.streamPrefixes?.length ?? 0) > 0),
  );
}
