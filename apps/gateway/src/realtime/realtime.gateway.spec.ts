import { recordedEvent } from '@tollgate/testing/recorded-event';
import type { Authenticator } from '../auth/authenticator';
import { PUSH_INTERVAL_MS, RealtimeGateway } from './realtime.gateway';

/** A socket in the rooms the gateway gives it; records what it hears. */
class FakeSocket {
  readonly rooms = new Set<string>();
  readonly heard: unknown[] = [];
  readonly data = { session: 'cookie' };
  join(rooms: string[]): void {
    for (const room of rooms) this.rooms.add(room);
  }
  leave(room: string): void {
    this.rooms.delete(room);
  }
  disconnect(): void {
    this.rooms.clear();
  }
}

describe('RealtimeGateway.push', () => {
  it('holds the admin pushes of a batch until a demoted admin has left the admins room', async () => {
    const admin = new FakeSocket();
    admin.join(['user:5', 'everyone', 'admins']);
    let role = 10;
    let finishRecheck!: () => void;
    // The session check after the demotion is slow (it reads the users read model).
    const authenticator = {
      authenticate: () =>
        new Promise((resolve) => {
          finishRecheck = () => resolve({ id: 5, role });
        }),
    } as unknown as Authenticator;
    const gateway = new RealtimeGateway(authenticator);
    const sockets = [admin];
    Object.assign(gateway, {
      server: {
        in: (room: string) => ({
          fetchSockets: () => Promise.resolve(sockets.filter((s) => s.rooms.has(room))),
        }),
        to: (room: string) => ({
          emit: (_name: string, event: unknown) => {
            for (const s of sockets) if (s.rooms.has(room)) s.heard.push(event);
          },
        }),
      },
    });

    role = 1;
    // One batch: the users projection is reported first, then the channels projection.
    gateway.push('users', [recordedEvent('UserRoleChanged', { userId: 5, from: 10, to: 1 })]);
    gateway.push('channels', [recordedEvent('ChannelCreated', { channelId: 3 })]);
    await new Promise((r) => setTimeout(r, PUSH_INTERVAL_MS * 2));
    expect(admin.heard).toEqual([]);

    finishRecheck();
    await new Promise((r) => setTimeout(r, PUSH_INTERVAL_MS * 2));
    expect(admin.rooms.has('admins')).toBe(false);
    expect(admin.heard).toEqual([{ topic: 'self', id: 5 }]);
  });
});
