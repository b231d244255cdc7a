import type { RecordedEvent } from '@tollgate/event-store';

/**
 * An in-memory view the relay reads on its hot path (balance book, token keys, routing table, …).
 * Fed by the process's one cache subscription straight from the log, before and independently of
 * the read-store commit; rebuilt by replaying the log at start-up. `apply` is synchronous and must
 * not do I/O: it runs on the event loop the relay shares.
 */
export interface HotCache {
  /** For logs and errors. */
  readonly name: string;
  /** `apply` sees only events of these types. */
  readonly eventTypes: readonly string[];
  apply(events: readonly RecordedEvent[]): void;
}
