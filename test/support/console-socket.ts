import { io, type Socket } from 'socket.io-client';
import { withTimeout } from './e2e-helpers';

/** A console Socket.IO client as the browser opens it (websocket, the session cookie), never reconnecting
 * on its own so a server-side disconnect stays visible to the test. */
export function openConsoleSocket(url: string, cookie?: string): Socket {
  return io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie } : {},
    reconnection: false,
    forceNew: true,
  });
}

/** Resolves once the socket is connected; a refused handshake (connect_error) fails the test. */
export function socketConnected(socket: Socket, what = 'socket to connect'): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    }),
    what,
  );
}
