import request from 'supertest';
import { readStoredEvents, type StoredEvent } from '../support/e2e-helpers';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { ConsoleClient, tempDataDir } from '../support/test-app';

jest.setTimeout(240_000);

/**
 * kill -9 at every step of a registration (the gateway as its own process, built with
 * `npm run build:server`; TOLLGATE_CRASH_AT names the step where it SIGKILLs itself). After a
 * restart nothing is half-done: a name or aff code claimed before the crash is free again, a user
 * registered before the crash has every grant, the inviter's reward and the completion exactly
 * once.
 */

/** In the order the registrar passes them. */
const STEPS = [
  'registration:after-id',
  'registration:after-username',
  'registration:after-affcode',
  'registration:after-user',
  'registration:after-grant',
  'registration:after-invitee-bonus',
  'registration:after-inviter-reward',
] as const;
/** Steps at which the user already exists (UserRegistered was appended). */
const REGISTERED_FROM = STEPS.indexOf('registration:after-user');

const QUOTA = { newUser: 100, invitee: 10, inviter: 7 };

const victim = (i: number) => `victim${i}`;

function registerBody(username: string, affCode: string) {
  return { username, password: 'password123', password2: 'password123', aff_code: affCode };
}

const ofUser = (events: StoredEvent[], type: string, userId: number) =>
  events.filter((e) => e.type === type && e.data['userId'] === userId);

describe('registration survives kill -9 at every step', () => {
  const dataDir = tempDataDir();
  let affCode = '';

  async function rootClient(gateway: RunningGateway): Promise<ConsoleClient> {
    return new ConsoleClient(gateway.url).login('root', '123456');
  }

  beforeAll(async () => {
    // A normal first start: root, and grants so every registration step writes an event.
    const gateway = await startGateway({ dataDir });
    try {
      const root = await rootClient(gateway);
      for (const [key, value] of [
        ['QuotaForNewUser', QUOTA.newUser],
        ['QuotaForInvitee', QUOTA.invitee],
        ['QuotaForInviter', QUOTA.inviter],
      ] as const)
        expect((await root.put('/api/option/', { key, value: String(value) })).body.success).toBe(
          true,
        );
      affCode = (await root.get('/api/user/aff')).body.data as string;
      for (const name of ['renamee1', 'renamee2'])
        expect(
          (await root.post('/api/user/', { username: name, password: 'password123' })).body.success,
        ).toBe(true);
    } finally {
      await gateway.stop();
    }
  });

  it.each(STEPS.map((step, i) => [step, i] as const))(
    'crash %s: the process dies mid-registration',
    async (step, i) => {
      const gateway = await startGateway({ dataDir, env: { TOLLGATE_CRASH_AT: step } });
      const attempt = await request(gateway.url)
        .post('/api/user/register')
        .send(registerBody(victim(i), affCode))
        .then(
          () => 'answered',
          () => 'connection lost',
        );
      expect({ step, attempt, exit: await gateway.exited }).toEqual({
        step,
        attempt: 'connection lost',
        exit: null, // killed by a signal
      });
    },
  );

  it.each([
    ['rename:after-claim', 'renamee1', 'renamed1'],
    ['rename:after-rename', 'renamee2', 'renamed2'],
  ])('crash %s: the process dies mid-rename', async (step, from, to) => {
    const gateway = await startGateway({ dataDir, env: { TOLLGATE_CRASH_AT: step } });
    const root = await rootClient(gateway);
    const found = await root.get(`/api/user/search?keyword=${from}`);
    const id = (found.body.data.items as Array<{ id: number }>)[0]!.id;
    const attempt = await root.put('/api/user/', { id, username: to }).then(
      () => 'answered',
      () => 'connection lost',
    );
    expect({ attempt, exit: await gateway.exited }).toEqual({
      attempt: 'connection lost',
      exit: null,
    });
  });

  it('after a restart every registration is whole, and every unregistered name is free', async () => {
    const gateway = await startGateway({ dataDir });
    try {
      const root = await rootClient(gateway);
      for (const [i] of STEPS.entries()) {
        const again = await request(gateway.url)
          .post('/api/user/register')
          .send(registerBody(victim(i), affCode));
        // Before the commit point the name was only claimed: it is free again. After it, the user
        // exists and the name is theirs.
        expect({ step: STEPS[i], body: again.body }).toEqual({
          step: STEPS[i],
          body:
            i < REGISTERED_FROM
              ? { success: true, message: '' }
              : { success: false, message: '用户名已存在' },
        });
      }

      const events = readStoredEvents(dataDir);
      for (const [i] of STEPS.entries()) {
        const found = await root.get(`/api/user/search?keyword=${victim(i)}`);
        const items = found.body.data.items as Array<{
          id: number;
          username: string;
          quota: number;
        }>;
        const user = items.find((u) => u.username === victim(i));
        expect({
          step: STEPS[i],
          count: items.filter((u) => u.username === victim(i)).length,
        }).toEqual({
          step: STEPS[i],
          count: 1,
        });
        // Every grant exactly once, the inviter's reward exactly once, and the completion.
        const grants = ofUser(events, 'QuotaGranted', user!.id).map((e) => e.data['reason']);
        const rewards = events.filter(
          (e) => e.type === 'InviterRewarded' && e.data['inviteeId'] === user!.id,
        );
        expect({
          step: STEPS[i],
          quota: user!.quota,
          grants: grants.sort(),
          rewards: rewards.length,
          completed: ofUser(events, 'UserRegistrationCompleted', user!.id).length,
        }).toEqual({
          step: STEPS[i],
          quota: QUOTA.newUser + QUOTA.invitee,
          grants: ['invitee_bonus', 'new_user'],
          rewards: 1,
          completed: 1,
        });
      }

      // Killed after claiming the new name: the rename never happened and the new name is free.
      // Killed after renaming: the rename stands and the old name is free.
      const names = async () =>
        (
          (await root.get('/api/user/search?keyword=rename')).body.data.items as Array<{
            username: string;
          }>
        )
          .map((u) => u.username)
          .sort();
      expect(await names()).toEqual(['renamed2', 'renamee1']);
      for (const name of ['renamed1', 'renamee2'])
        expect(
          (await root.post('/api/user/', { username: name, password: 'password123' })).body,
        ).toEqual({
          success: true,
          message: '',
        });

      // Root was rewarded once per invitee, and no guard is held by someone who does not hold it.
      const self = (await root.get('/api/user/self')).body.data as { aff_count: number };
      expect(self.aff_count).toBe(STEPS.length);
      const lastByGuard = new Map<string, StoredEvent>();
      for (const e of events)
        if (/^(username|affcode)-/.test(e.streamId)) lastByGuard.set(e.streamId, e);
      const finalEvents = readStoredEvents(dataDir);
      lastByGuard.clear();
      for (const e of finalEvents)
        if (/^(username|affcode)-/.test(e.streamId)) lastByGuard.set(e.streamId, e);
      const users = (await root.get('/api/user/?p=1&page_size=100')).body.data.items as Array<{
        id: number;
        username: string;
        aff_code: string;
      }>;
      for (const [streamId, last] of lastByGuard) {
        if (last.type !== 'UniqueValueClaimed') continue;
        const owner = users.find((u) => u.id === last.data['ownerId']);
        const held = streamId.startsWith('username-')
          ? owner?.username.toLowerCase()
          : owner?.aff_code;
        expect({ streamId, held }).toEqual({ streamId, held: last.data['value'] });
      }
    } finally {
      await gateway.stop();
    }
  });

  it('a first start killed while creating root creates root on the next start', async () => {
    const fresh = tempDataDir();
    await expect(
      startGateway({ dataDir: fresh, env: { TOLLGATE_CRASH_AT: 'registration:after-username' } }),
    ).rejects.toThrow(/gateway exited/);
    const gateway = await startGateway({ dataDir: fresh });
    try {
      const root = await rootClient(gateway);
      expect((await root.get('/api/user/self')).body.data).toMatchObject({
        username: 'root',
        role: 100,
      });
    } finally {
      await gateway.stop();
    }
  });
});
