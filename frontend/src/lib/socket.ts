import {
  SOCKET_PATH,
  type ChangedEvent,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@tollgate/contracts';
import { io, type Socket } from 'socket.io-client';

export type ConsoleSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connection that lived this long was accepted: a later refusal may be worth one retry again. */
export const ACCEPTED_AFTER_MS = 5_000;
/** Wait before that retry, so the answer that renewed the cookie has been stored. */
export const RETRY_AFTER_MS = 1_000;

/**
 * Opens the console's push channel (same origin, session cookie) and hands every `changed`
 * event to `onChanged`. Idle until the server pushes; returns the function that closes it.
 *
 * The server disconnects a socket whose session ended, and socket.io does not reconnect after
 * that. A password change in another tab of this browser ends the old session while its answer
 * stores a fresh cookie that this tab shares: one new handshake a moment later carries it. A
 * refusal right after that retry is final (the session really ended). This tab's own password
 * change reopens the feed directly (useLiveUpdates follows sessionRenewed).
 */
export function openChangeFeed(
  userId: number,
  onChanged: (event: ChangedEvent) => void,
): () => void {
  const socket: ConsoleSocket = io({
    path: SOCKET_PATH,
    withCredentials: true,
    auth: { userId },
  });
  let retried = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  socket.on('connect', () => {
    timer = setTimeout(() => (retried = false), ACCEPTED_AFTER_MS);
  });
  socket.on('disconnect', (reason) => {
    clearTimeout(timer);
    if (reason !== 'io server disconnect' || retried) return;
    retried = true;
    timer = setTimeout(() => socket.connect(), RETRY_AFTER_MS);
  });
  socket.on('changed', onChanged);
  return () => {
    clearTimeout(timer);
    socket.off('changed', onChanged);
    socket.removeAllListeners('disconnect');
    socket.disconnect();
  };
}
