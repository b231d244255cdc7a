/** An event id that is already in the store (SQLite rejects it; EventStoreDB would ignore the retry). */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    cause: unknown,
  ) {
    super(`Duplicate event id in append to ${streamId}`, { cause });
  }
}

export function isDuplicateEventId(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof e.message === 'string' &&
    e.message.includes('events.event_id')
  );
}
