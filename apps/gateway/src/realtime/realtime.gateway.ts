import { Logger } from '@nestjs/common';
import { type OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import {
  isAdmin,
  isRoot,
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@tollgate/contracts';
import type { RecordedEvent } from '@tollgate/event-store';
import { Authenticator } from '../auth/authenticator';
import { SESSION_COOKIE } from '../auth/session-codec';
import { pushesFor } from './change-topics';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Live console updates: signed-in browsers join rooms by user and role and get "what changed" hints. */
@WebSocketGateway({ path: SOCKET_PATH, serveClient: false })
export class RealtimeGateway implements OnGatewayConnection {
  private readonly logger = new Logger(RealtimeGateway.name);
  @WebSocketServer() private server!: Server<ClientToServerEvents, ServerToClientEvents>;

  constructor(private readonly authenticator: Authenticator) {}

  async handleConnection(client: Socket): Promise<void> {
    try {
      const user = await this.authenticator.authenticate({
        sessionCookie: cookieValue(client.handshake.headers.cookie, SESSION_COOKIE),
        // Browsers cannot set headers on a WebSocket; the signed cookie is the proof here.
        userHeader: undefined,
        sessionOnly: true,
      });
      await client.join([`user:${user.id}`, 'everyone']);
      if (isAdmin(user.role)) await client.join('admins');
      if (isRoot(user.role)) await client.join('root');
    } catch {
      client.disconnect(true);
    }
  }

  push(projection: string, events: readonly RecordedEvent[]): void {
    if (!this.server) return;
    for (const { to, event } of pushesFor(projection, events))
      this.server.to(to).emit('changed', event);
    this.logger.debug(`pushed ${projection} changes`);
  }
}
