import type { ChangedEvent } from '@tollgate/contracts';

type Listener = (event: ChangedEvent) => void;

const listeners = new Set<Listener>();

/**
 * The server's `changed` pushes, for screens that decide themselves when to refetch (the log
 * page's live toggle). Most screens need none of this: the pushes invalidate their queries.
 */
export function publishChange(event: ChangedEvent): void {
  for (const listener of [...listeners]) listener(event);
}

/** Hears every push from now on; returns the function that stops it. */
export function subscribeChanges(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
