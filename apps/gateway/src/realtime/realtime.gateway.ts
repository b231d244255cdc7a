import fastifyCookie from '@fastify/cookie';
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

interface SocketData {
  session?: string;
}

type RemoteSocket = Awaited<ReturnType<Server['fetchSockets']>>[number];

/** User events that can end a session or change what a socket may hear. */
const ACCESS_EVENTS = new Set([
  'UserSignedOut',
  'UserPasswordChanged',
  'UserRoleChanged',
  'UserStatusChanged',
  'UserDeregistered',
]);

function usersToRecheck(events: readonly RecordedEvent[]): number[] {
  const ids = new Set<number>();
  for (const event of events) {
    const userId = (event.data as { userId?: unknown }).userId;
    if (ACCESS_EVENTS.has(event.type) && typeof userId === 'number') ids.add(userId);
  }
  return [...ids];
}

/** Live console updates: signed-in browsers join rooms by user and role and get "what changed" hints. */
@WebSocketGateway({ path: SOCKET_PATH, serveClient: false })
export class RealtimeGateway implements OnGatewayConnection {
  private readonly logger = new Logger(RealtimeGateway.name);
  @WebSocketServer() private server!: Server<ClientToServerEvents, ServerToClientEvents>;
  private readonly pending = new Map<string, Push>();
  private timer: NodeJS.Timeout | undefined;
  /** Settles once every socket recheck begun so far is done; never rejects. */
  private rechecks: Promise<void> = Promise.resolve();

  constructor(private readonly authenticator: Authenticator) {}

  async handleConnection(client: Socket): Promise<void> {
    // The HTTP routes' cookie parser: it never throws on malformed escapes (a rejection here is
    // unhandled, Nest ignores the promise, and would end the process).
    const session = fastifyCookie.parse(client.handshake.headers.cookie ?? '')[SESSION_COOKIE];
    // Kept so the socket can be checked again whenever its user's document changes.
    (client.data as SocketData).session = session;
    await this.admit(client, session);
  }

  /**
   * Authenticates the socket's session against the current user document and puts it in exactly
   * the rooms its role allows; a session that ended (logout, password change, disable, deletion,
   * demotion) is disconnected.
   */
  private async admit(client: Socket | RemoteSocket, session: string | undefined): Promise<void> {
    try {
      const user = await this.authenticator.authenticate({
        sessionCookie: session,
        // Browsers cannot set headers on a WebSocket; the signed cookie is the proof here.
        userHeader: undefined,
        sessionOnly: true,
      });
      const rooms = [`user:${user.id}`, 'everyone'];
      if (isAdmin(user.role)) rooms.push('admins');
      if (isRoot(user.role)) rooms.push('root');
      for (const room of ['admins', 'root'])
        if (!rooms.includes(room) && client.rooms.has(room)) await client.leave(room);
      await client.join(rooms);
    } catch {
      client.disconnect(true);
    }
  }

  private async recheck(userId: number): Promise<void> {
    const sockets = await this.server.in(`user:${userId}`).fetchSockets();
    await Promise.all(
      sockets.map((socket) => this.admit(socket, (socket.data as SocketData).session)),
    );
  }

  /**
   * Throttled: pushes gather for PUSH_INTERVAL_MS and go out once per audience/topic/id, so a
   * burst of changes (a batch create, a stream of usage receipts) is one push, not one per event.
   */
  push(projection: string, events: readonly RecordedEvent[]): void {
    if (!this.server) return;
    // Sessions and rooms first: a demoted admin must not receive this batch's admin pushes, from
    // any projection (the runner reports users first, then the others of the same batch), so every
    // push waits for the rechecks begun before it.
    const recheck = projection === 'users' ? usersToRecheck(events) : [];
    if (recheck.length > 0)
      this.rechecks = this.rechecks
        .then(() => Promise.all(recheck.map((userId) => this.recheck(userId))))
        .then(
          () => undefined,
          (error: unknown) => this.logger.error(`socket recheck failed: ${String(error)}`),
        );
    void this.rechecks.then(() => this.queue(projection, events));
  }

  private queue(projection: string, events: readonly RecordedEvent[]): void {
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
