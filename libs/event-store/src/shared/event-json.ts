import type { EventData } from '../event-store.port';

/** An event's data and metadata as the stores write them. */
export interface EventJson {
  readonly data: string;
  readonly metadata: string;
}

const made = new WeakMap<EventData, EventJson>();

const stringified = (event: EventData): EventJson => ({
  data: JSON.stringify(event.data ?? null),
  metadata: JSON.stringify(event.metadata ?? {}),
});

/**
 * The JSON an event is written as, made once per event object and kept with it: a batching
 * appender measures its events (`eventBytes`, to cut appends under the server's size limit), and
 * the store then writes them without serialising each receipt again (`appendJson`). An event is a
 * value once measured: a change to it after that would not be written. Throws what
 * `JSON.stringify` throws (a cycle, a BigInt).
 */
export function eventJson(event: EventData): EventJson {
  let json = made.get(event);
  if (json === undefined) {
    json = stringified(event);
    made.set(event, json);
  }
  return json;
}

/**
 * What a store's append writes: the JSON `eventJson` made, else made now and not kept (a caller
 * may append the same object again after changing it, a retry that rebuilt its data).
 */
export function appendJson(event: EventData): EventJson {
  return made.get(event) ?? stringified(event);
}
