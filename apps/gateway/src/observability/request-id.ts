import { v7 as timeOrderedUuid } from 'uuid';

const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/** A client's X-Request-Id is kept when it is at most 64 of [A-Za-z0-9._-]; else one is made. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && WELL_FORMED.test(header) ? header : newRequestId();
}

/**
 * 32 hex digits, what the relay has always answered in its error messages: a UUID v7's, so the
 * first 12 are the milliseconds it was made at. Receipts take their event ids' first 12 from it
 * (requestDerivedId): they then reach the event store's unique index in time order.
 *
 * The time is given, so `uuid` keeps no per-process counter: the 74 bits after it are all random.
 * With the counter, an id made in the same millisecond as another would differ from it in 42
 * random bits only, and a drawing task's id is its request id, which GET /mj/image/:id answers to
 * without a key.
 */
export function newRequestId(): string {
  return timeOrderedUuid({ msecs: Date.now() }).replace(/-/g, '');
}
