import request from 'supertest';
import type { Server } from 'socket.io';
import type { Socket } from 'socket.io-client';
import { openConsoleSocket, socketConnected } from '../support/console-socket';
import type { ChangedEvent } from '@tollgate/contracts';
import {
  PUSH_INTERVAL_MS,
  RealtimeGateway,
} from '../../apps/gateway/src/realtime/realtime.gateway';
import { expectSuccess, sessionCookieOf, waitUntil, withTimeout } from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** A console's socket: records every `changed` push in arrival order and awaits the next matching one. */
class Probe {
  readonly events: ChangedEvent[] = [];
  /** When the last push arrived. */
  lastAt = Date.now();
  private waiters: Array<{
    from: number;
    match: (e: ChangedEvent) => boolean;
    resolve: (index: number) => void;
  }> = [];

  constructor(
    readonly name: string,
    readonly socket: Socket,
  ) {
    socket.on('changed', (event: ChangedEvent) => {
      this.events.push(event);
      this.lastAt = Date.now();
      const index = this.events.length - 1;
      this.waiters = this.waiters.filter((w) => {
        if (index < w.from || !w.match(event)) return true;
        w.resolve(index);
        return false;
      });
    });
  }

  /** Position to wait from: only pushes received after now count. */
  mark(): number {
    return this.events.length;
  }

  /** Index of the `nth` (1-based) push at or after `from` that matches. */
  next(match: Partial<ChangedEvent>, from: number, nth = 1): Promise<number> {
    const matches = (e: ChangedEvent) =>
      Object.entries(match).every(([k, v]) => (e as unknown as Record<string, unknown>)[k] === v);
    const indexes = () => this.events.flatMap((e, i) => (i >= from && matches(e) ? [i] : []));
    const found = indexes()[nth - 1];
    if (found !== undefined) return Promise.resolve(found);
    return withTimeout(
      new Promise<number>((resolve) =>
        this.waiters.push({
          from,
          match: () => indexes().length >= nth,
          resolve: () => resolve(indexes()[nth - 1]!),
        }),
      ),
      `${this.name} to receive ${JSON.stringify(match)} (#${nth})`,
    );
  }
}

type Connected = Probe & { userId: number; cookie: string };

/** Pushes of different projections in a canonical order, for comparing them as a multiset. */
const inAnyOrder = (events: readonly ChangedEvent[]) => events.map((e) => JSON.stringify(e)).sort();

describe('realtime pushes (Socket.IO /socket.io)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  const openSocket = (cookie?: string): Socket => {
    const socket = openConsoleSocket(t.url, cookie);
    sockets.push(socket);
    return socket;
  };

  /** The server side of a client socket (to know when its rooms are joined: that happens after `connect`). */
  const serverSocket = (id: string | undefined) => {
    const gateway: unknown = t.app.get(RealtimeGateway);
    const { server } = gateway as { server: Server };
    return id === undefined ? undefined : server.sockets.sockets.get(id);
  };

  /** Signs in, opens a socket with the session cookie and waits until the server put it in its rooms. */
  async function connectAs(
    username: string,
    password: string,
    rooms: (id: number) => string[],
  ): Promise<Connected> {
    const login = await request(t.url).post('/api/user/login').send({ username, password });
    expect(login.body.success).toBe(true);
    const userId = login.body.data.id as number;
    const cookie = sessionCookieOf(login);
    const socket = openSocket(cookie);
    const probe = Object.assign(new Probe(username, socket), { userId, cookie });
    await socketConnected(socket, `${username} to connect`);
    const expected = rooms(userId);
    await waitUntil(
      () => expected.every((room) => serverSocket(socket.id)?.rooms.has(room) ?? false),
      `${username} to join ${expected.join(', ')}`,
    );
    return probe;
  }

  const expectServerDisconnect = async (socket: Socket) => {
    const reason = await withTimeout(
      new Promise<string>((resolve) => socket.once('disconnect', resolve)),
      'the server to disconnect the socket',
    );
    expect(reason).toBe('io server disconnect');
    expect(socket.connected).toBe(false);
  };

  const ordinaryRooms = (id: number) => [`user:${id}`, 'everyone'];
  const adminRooms = (id: number) => [...ordinaryRooms(id), 'admins'];
  const rootRooms = (id: number) => [...adminRooms(id), 'root'];

  /** Every push carries a topic and at most an id: no data, no secret. */
  const expectBare = (events: readonly ChangedEvent[]) => {
    for (const event of events) {
      expect(['self', 'users', 'options', 'status', 'tokens', 'redemptions', 'logs']).toContain(
        event.topic,
      );
      for (const key of Object.keys(event)) expect(['topic', 'id']).toContain(key);
    }
  };

  describe('authentication', () => {
    it('disconnects an anonymous socket', async () => {
      await expectServerDisconnect(openSocket());
    });

    it('disconnects a forged or expired cookie', async () => {
      await expectServerDisconnect(openSocket(`session=1.${Date.now()}.forged`));
      await expectServerDisconnect(openSocket('session=garbage'));
    });

    it('disconnects a cookie with a malformed escape, and the server lives on', async () => {
      // decodeURIComponent throws on it; thrown in the connection handler it ended the process.
      await expectServerDisconnect(openSocket('session=%E0%A4%A'));
      expect((await request(t.url).get('/api/status')).body.success).toBe(true);
    });

    it('disconnects a disabled user even with a valid session cookie', async () => {
      const victim = await registerAndLogin(t.url, 'rt-disabled');
      const login = await request(t.url)
        .post('/api/user/login')
        .send({ username: 'rt-disabled', password: 'password123' });
      const cookie = sessionCookieOf(login);
      expect(
        (await root.post('/api/user/manage', { id: victim.userId, action: 'disable' })).body.data,
      ).toEqual({ role: 1, status: 2 });
      await expectServerDisconnect(openSocket(cookie));
    });
  });

  describe('changed pushes', () => {
    let rootProbe: Connected;
    let adminProbe: Connected;
    let alice: Connected;
    let bob: Connected;
    let notices = 0;

    beforeAll(async () => {
      await createAdmin(t.url, root, 'rt-admin');
      await registerAndLogin(t.url, 'rt-alice');
      await registerAndLogin(t.url, 'rt-bob');
      rootProbe = await connectAs('root', '123456', rootRooms);
      adminProbe = await connectAs('rt-admin', 'password123', adminRooms);
      alice = await connectAs('rt-alice', 'password123', ordinaryRooms);
      bob = await connectAs('rt-bob', 'password123', ordinaryRooms);
      // Pushes are throttled and follow the projections: the accounts created above may still be on
      // their way to these sockets, and the tests count pushes from their marks. They start after a
      // fence (every socket heard the pushes before it) and a quiet push interval.
      await fence(all().map((p) => p.mark()));
      await waitUntil(
        () => all().every((p) => Date.now() - p.lastAt > 3 * PUSH_INTERVAL_MS),
        'pushes to go quiet',
      );
    });

    const all = () => [rootProbe, adminProbe, alice, bob];

    /**
     * A later push every socket gets (a status change): once it arrived, everything sent to a socket
     * before it has arrived too (one connection keeps the order), so what is missing never came.
     * `statusesBefore`: status pushes the action itself caused. Answers each socket's pushes from its
     * mark up to the fence.
     */
    async function fence(
      marks: number[],
      statusesBefore = 0,
    ): Promise<[ChangedEvent[], ChangedEvent[], ChangedEvent[], ChangedEvent[]]> {
      notices += 1;
      expectSuccess(await root.put('/api/option/', { key: 'Notice', value: `fence ${notices}` }));
      const ends = await Promise.all(
        all().map((p, i) => p.next({ topic: 'status' }, marks[i]!, statusesBefore + 1)),
      );
      // The fence's own {options} to root, so that it cannot land in the next test's window.
      await rootProbe.next({ topic: 'options' }, ends[0]! + 1);
      const [toRoot, toAdmin, toAlice, toBob] = all().map((p, i) =>
        p.events.slice(marks[i], ends[i]),
      );
      return [toRoot!, toAdmin!, toAlice!, toBob!];
    }

    it('root updating a user: admins get {users, id}, the user gets {self, id}, other users nothing', async () => {
      const marks = all().map((p) => p.mark());
      expectSuccess(await root.put('/api/user/', { id: alice.userId, display_name: 'Alice A' }));
      await adminProbe.next({ topic: 'users', id: alice.userId }, marks[1]!);
      await rootProbe.next({ topic: 'users', id: alice.userId }, marks[0]!);
      await alice.next({ topic: 'self', id: alice.userId }, marks[2]!);

      const [toRoot, toAdmin, toAlice, toBob] = await fence(marks);
      expect(toAdmin).toEqual([{ topic: 'users', id: alice.userId }]);
      expect(toRoot).toEqual([{ topic: 'users', id: alice.userId }]);
      expect(toAlice).toEqual([{ topic: 'self', id: alice.userId }]);
      expect(toBob).toEqual([]);
    });

    it('a quota change and a self-service change push the same way', async () => {
      let marks = all().map((p) => p.mark());
      expectSuccess(await root.put('/api/user/', { id: bob.userId, quota: 5000 }));
      let [toRoot, toAdmin, toAlice, toBob] = await fence(marks);
      // The edit is also a type-3 log row: the log pages of admins and of bob refresh. The users
      // and logs projections run independently, so which of their pushes leaves first varies:
      // exactly these pushes, in either order.
      expect(inAnyOrder(toAdmin)).toEqual(
        inAnyOrder([{ topic: 'users', id: bob.userId }, { topic: 'logs' }]),
      );
      expect(inAnyOrder(toRoot)).toEqual(
        inAnyOrder([{ topic: 'users', id: bob.userId }, { topic: 'logs' }]),
      );
      expect(inAnyOrder(toBob)).toEqual(
        inAnyOrder([{ topic: 'self', id: bob.userId }, { topic: 'logs' }]),
      );
      expect(toAlice).toEqual([]);

      marks = all().map((p) => p.mark());
      const aliceClient = await new ConsoleClient(t.url).login('rt-alice', 'password123');
      expectSuccess(await aliceClient.put('/api/user/self', { display_name: 'Alice B' }));
      [toRoot, toAdmin, toAlice, toBob] = await fence(marks);
      expect(toAdmin).toEqual([{ topic: 'users', id: alice.userId }]);
      expect(toAlice).toEqual([{ topic: 'self', id: alice.userId }]);
      expect(toBob).toEqual([]);

      // A new registration is news for administrators only.
      marks = all().map((p) => p.mark());
      const carol = await registerAndLogin(t.url, 'rt-carol');
      [toRoot, toAdmin, toAlice, toBob] = await fence(marks);
      expect(toAdmin).toContainEqual({ topic: 'users', id: carol.userId });
      expect(toAdmin.every((e) => e.topic === 'users' && e.id === carol.userId)).toBe(true);
      expect(toAlice).toEqual([]);
      expect(toBob).toEqual([]);
    });

    it('an option change: {status} to everyone, {options} to root only', async () => {
      const marks = all().map((p) => p.mark());
      expectSuccess(
        await root.put('/api/option/', { key: 'SystemName', value: 'Realtime Gateway' }),
      );
      const firsts = await Promise.all(all().map((p, i) => p.next({ topic: 'status' }, marks[i]!)));
      for (const [i, p] of all().entries())
        expect(p.events[firsts[i]!]).toEqual({ topic: 'status' });
      await rootProbe.next({ topic: 'options' }, marks[0]!);

      // A second change fences the first: any {options} for the others would have arrived before it.
      const [toRoot, toAdmin, toAlice, toBob] = await fence(marks, 1);
      expect(toRoot).toEqual([{ topic: 'status' }, { topic: 'options' }]);
      for (const events of [toAdmin, toAlice, toBob]) expect(events).toEqual([{ topic: 'status' }]);
      expect((await request(t.url).get('/api/status')).body.data.system_name).toBe(
        'Realtime Gateway',
      );
    });

    it('secret changes push only topics: no value, never {options} to non-root sockets', async () => {
      const secret = 'rt-SMTP-secret-5d1c0b7e';
      const marks = all().map((p) => p.mark());
      expectSuccess(await root.put('/api/option/', { key: 'SMTPToken', value: secret }));
      await rootProbe.next({ topic: 'options' }, marks[0]!);
      const [toRoot, toAdmin, toAlice, toBob] = await fence(marks, 1);
      expect(toRoot).toEqual([{ topic: 'status' }, { topic: 'options' }]);
      for (const events of [toAdmin, toAlice, toBob]) expect(events).toEqual([{ topic: 'status' }]);

      for (const probe of all()) {
        expectBare(probe.events);
        expect(JSON.stringify(probe.events)).not.toContain(secret);
      }
      for (const probe of [adminProbe, alice, bob])
        expect(probe.events.some((e) => e.topic === 'options')).toBe(false);
      for (const probe of [alice, bob])
        expect(probe.events.some((e) => e.topic === 'users')).toBe(false);
    });

    it('disabling a user disconnects its socket; a new socket with that session is refused', async () => {
      const disconnected = expectServerDisconnect(alice.socket);
      expect(
        (await root.post('/api/user/manage', { id: alice.userId, action: 'disable' })).body.data,
      ).toEqual({ role: 1, status: 2 });
      await disconnected;
      await expectServerDisconnect(openSocket(alice.cookie));
    });
  });
});
