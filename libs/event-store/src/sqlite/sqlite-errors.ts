export { DuplicateEventIdError } from '../shared/duplicate-event-id-error';

export function isDuplicateEventId(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof e.message === 'string' &&
    e.message.includes('events.event_id')
  );
}
