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
import { pushesFor, type Push } from './change-topics';

/** Longest delay of a push; bursts within it collapse into one. */
export const PUSH_INTERVAL_MS = 200;

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
  private readonly pending = new Map<string, Push>();
  private timer: NodeJS.Timeout | undefined;

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

  /**
   * Throttled: pushes gather for PUSH_INTERVAL_MS and go out once per audience/topic/id, so a
   * burst of changes (a batch create, a stream of usage receipts) is one push, not one per event.
   */
  push(projection: string, events: readonly RecordedEvent[]): void {
    if (!this.server) return;
    for (const push of pushesFor(projection, events))
      this.pending.set(`${push.to}|${push.event.topic}|${push.event.id ?? ''}`, push);
    if (this.pending.size === 0 || this.timer) return;
    this.timer = setTimeout(() => this.flush(), PUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private flush(): void {
    this.timer = undefined;
    const pushes = [...this.pending.values()];
    this.pending.clear();
    for (const { to, event } of pushes) this.server.to(to).emit('changed', event);
    this.logger.debug(`pushed ${pushes.length} changes`);
  }
}
