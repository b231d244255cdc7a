import type { UserDto } from '@tollgate/contracts';
import { readStoredEvents } from '../support/e2e-helpers';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { ConsoleClient, tempDataDir } from '../support/test-app';

jest.setTimeout(120_000);

/**
 * kill -9 between the top-up's two appends (the gateway as its own process, built with
 * `npm run build:server`; TOLLGATE_CRASH_AT names the step where it SIGKILLs itself): the code is
 * used but its credit was never appended. The next start pays it, once, whatever the restarts.
 */
describe('a top-up survives kill -9 between "code redeemed" and "credit appended"', () => {
  const dataDir = tempDataDir();
  const QUOTA = 7_000;
  let key = '';
  let userId = 0;
  let before = 0;

  const signIn = (gateway: RunningGateway, name: string, password: string) =>
    new ConsoleClient(gateway.url).login(name, password);
  const credits = () =>
    readStoredEvents(dataDir, { streamId: `billing-${userId}`, type: 'QuotaGranted' }).filter(
      (e) => e.data['reason'] === 'redemption',
    );

  beforeAll(async () => {
    const gateway = await startGateway({ dataDir });
    try {
      const root = await signIn(gateway, 'root', '123456');
      expect(
        (await root.post('/api/user/', { username: 'crashpay', password: 'password123' })).body,
      ).toMatchObject({ success: true });
      const user = await signIn(gateway, 'crashpay', 'password123');
      userId = user.userId;
      before = ((await user.get('/api/user/self')).body.data as UserDto).quota;
      key = (
        (await root.post('/api/redemption/', { name: 'crash', quota: QUOTA })).body.data as string[]
      )[0]!;
    } finally {
      await gateway.stop();
    }
  });

  it('the process dies right after the code is marked used', async () => {
    const gateway = await startGateway({
      dataDir,
      env: { TOLLGATE_CRASH_AT: 'redeem:after-redeemed' },
    });
    const user = await signIn(gateway, 'crashpay', 'password123');
    const attempt = await user.post('/api/user/topup', { key }).then(
      () => 'answered',
      () => 'connection lost',
    );
    expect({ attempt, exit: await gateway.exited }).toEqual({
      attempt: 'connection lost',
      exit: null, // killed by a signal
    });
    expect(readStoredEvents(dataDir, { type: 'RedemptionRedeemed' })).toHaveLength(1);
    expect(credits()).toHaveLength(0);
  });

  it('every later start shows the credit exactly once; the code stays used', async () => {
    for (let restart = 0; restart < 2; restart += 1) {
      const gateway = await startGateway({ dataDir });
      try {
        const user = await signIn(gateway, 'crashpay', 'password123');
        expect(((await user.get('/api/user/self')).body.data as UserDto).quota).toBe(
          before + QUOTA,
        );
        expect((await user.post('/api/user/topup', { key })).body).toEqual({
          success: false,
          message: '该兑换码已被使用',
        });
        const [redeemed] = readStoredEvents(dataDir, { type: 'RedemptionRedeemed' });
        expect(
          credits().map((e) => ({ ...e.data, causationId: e.metadata['causationId'] })),
        ).toEqual([
          {
            userId,
            amount: QUOTA,
            reason: 'redemption',
            reference: redeemed!.streamId,
            causationId: redeemed!.id,
          },
        ]);
      } finally {
        await gateway.stop();
      }
    }
  });
});
