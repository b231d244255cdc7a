import { hash } from 'node:crypto';

/**
 * A uuid-shaped id derived from a source id and an index (name-based, like uuid v5 but SHA-256):
 * the same command or request always yields the same event ids, so a retried append is refused as
 * a duplicate instead of being recorded twice.
 */
export function derivedId(source: string, index = 0): string {
  // The one-shot call: a request derives an id or two, and a Hash object costs more than its digest.
  const hex = hash('sha256', `${source}#${index}`, 'hex');
  // Version nibble 8 (custom) and the RFC 4122 variant, so it parses as a uuid everywhere.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A request id the gateway made (newRequestId): a UUID v7's hex digits, milliseconds first. */
const TIME_ORDERED_REQUEST_ID = /^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/;

/**
 * The id of a request's event of one kind (its receipt, its failure): derivedId of both, except
 * that a time-ordered request id lends the id its first 48 bits, its milliseconds. A receipt's id
 * then lands at the end of the event store's unique index, where the last ones went, instead of at
 * a random page of it: with random ids every receipt's commit read and rewrote a page of an index
 * that outgrows the cache (docs/performance-journal.md, "Receipts' event ids in time order"). The
 * other 74 bits are the hash's, so two events of one millisecond still differ, and the id stays a
 * function of the request: a retried receipt is still a duplicate.
 */
export function requestDerivedId(kind: string, requestId: string): string {
  const id = derivedId(`${kind}:${requestId}`);
  if (!TIME_ORDERED_REQUEST_ID.test(requestId)) return id;
  return `${requestId.slice(0, 8)}-${requestId.slice(8, 12)}${id.slice(13)}`;
}
