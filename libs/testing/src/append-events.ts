import { randomUUID } from 'node:crypto';
import type { AppendResult, EventStore, Metadata } from '@tollgate/event-store';

/** Appends domain-shaped events ({type, data}) to one stream with fresh ids and the given metadata. */
export function appendEvents(
  store: EventStore,
  stream: string,
  events: ReadonlyArray<{ type: string; data: unknown }>,
  metadata: Metadata,
): Promise<AppendResult> {
  return store.append(
    stream,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
    'any',
  );
}

/** Metadata of an event the system recorded at `iso` (no user behind it). */
export function systemMetadataAt(iso: string): Metadata {
  return { schemaVersion: 1, actor: { kind: 'system', id: null, role: null }, occurredAt: iso };
}
