/**
 * An append carrying an event id the store already holds: nothing was written. Both adapters throw
 * it for a retried append (same ids, same or later expected revision); see docs/deployment.md.
 */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    cause: unknown,
  ) {
    super(`Duplicate event id in append to ${streamId}`, { cause });
  }
}
