import {
  SOCKET_PATH,
  type ChangedEvent,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@tollgate/contracts';
import { io, type Socket } from 'socket.io-client';

export type ConsoleSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens the console's push channel (same origin, session cookie) and hands every `changed`
 * event to `onChanged`. Idle until the server pushes; returns the function that closes it.
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
  socket.on('changed', onChanged);
  return () => {
    socket.off('changed', onChanged);
    socket.disconnect();
  };
}
