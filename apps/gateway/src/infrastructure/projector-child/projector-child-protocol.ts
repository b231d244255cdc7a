import { parsePosition, serializePosition, type Position } from '@tollgate/event-store';

/**
 * In the projector child's environment: the pid of the gateway that started it. The child then
 * shares its parent's hold on DATA_DIR and stops when the parent goes (docs/operations.md).
 */
export const PROJECTOR_PARENT_ENV = 'TOLLGATE_PROJECTOR_PARENT';

/** What the child tells its parent over the IPC channel: the position its read models reached. */
interface HeadMessage {
  readonly type: 'projector-head';
  readonly position: string;
}

export function headMessage(position: Position): HeadMessage {
  return { type: 'projector-head', position: serializePosition(position) };
}

/** Sent once the child has declared its read models and caught up with the log. */
export const READY_MESSAGE = { type: 'projector-ready' } as const;

export const isReadyMessage = (message: unknown): boolean =>
  (message as { type?: unknown } | null)?.type === READY_MESSAGE.type;

/** Sent by the gateway after it appended: the child looks at the log now, not at its next tick. */
export const APPENDED_MESSAGE = { type: 'appended' } as const;

export const isAppendedMessage = (message: unknown): boolean =>
  (message as { type?: unknown } | null)?.type === APPENDED_MESSAGE.type;

/** The position a head message carries; null for anything else. */
export function headOfMessage(message: unknown): Position | null {
  const candidate = message as Partial<HeadMessage> | null;
  if (candidate?.type !== 'projector-head' || typeof candidate.position !== 'string') return null;
  try {
    return parsePosition(candidate.position);
  } catch {
    return null;
  }
}
