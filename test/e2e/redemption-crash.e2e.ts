import type { PageOf, RedemptionDto, UserDto } from '@tollgate/contracts';
import { SYSTEM_ACTOR, redemptionDecider } from '@tollgate/domain';
import { appendWhileStopped, storedCredits } from '../support/crash-helpers';
import { readStoredEvents } from '../support/e2e-helpers';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { ConsoleClient, tempDataDir } from '../support/test-app';

jest.setTimeout(120_000);

/**
 * kill -9 between the top-up's two appends, with the gateway as its own process (built with
 * `npm run build:server`). The gateway is killed with SIGKILL, then the top-up's first append
 * alone — the code's RedemptionRedeemed, decided by the same decider on the same stream, with the
 * redeemer as actor — is written into its events.sqlite: what a process killed right after that
 * append leaves on disk, without a crash hook in the top-up. Every later start shows the credit
 * exactly once, appended by the system, and the code stays used.
 */
describe('a top-up killed between "code redeemed" and "credit appended"', () => {
  const dataDir = tempDataDir();
  const QUOTA = 7_000;
  const CORRELATION = 'topup-killed-mid-way';
  let key = '';
  let codeId = 0;
  let userId = 0;
  let before = 0;

  const signIn = (gateway: RunningGateway, name: string, password: string) =>
    new ConsoleClient(gateway.url).login(name, password);
  const credits = () => storedCredits(dataDir, 'redemption');

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
      const page = (await root.get('/api/redemption/?p=1&page_size=10')).body
        .data as PageOf<RedemptionDto>;
      codeId = page.items.find((c) => c.key === key)!.id;
    } finally {
      process.kill(gateway.pid, 'SIGKILL');
      await gateway.exited;
    }
  });

  it('leaves the code used and the redeemer unpaid on disk', async () => {
    const redeemed = await appendWhileStopped(dataDir, (commands) =>
      commands.execute(
        `redemption-${codeId}`,
        redemptionDecider,
        { type: 'RedeemCode', userId },
        { actor: { kind: 'user', id: userId, role: 1 }, correlationId: CORRELATION, lang: 'en' },
      ),
    );
    expect(redeemed.events.map((e) => e.type)).toEqual(['RedemptionRedeemed']);
    expect(readStoredEvents(dataDir, { type: 'RedemptionRedeemed' })).toHaveLength(1);
    expect(credits()).toHaveLength(0);
  });

  it('every later start shows the credit exactly once, by the system; the code stays used', async () => {
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
        expect(credits()).toEqual([
          {
            streamId: `billing-${userId}`,
            data: {
              userId,
              amount: QUOTA,
              reason: 'redemption',
              reference: redeemed!.streamId,
            },
            actor: SYSTEM_ACTOR,
            causationId: redeemed!.id,
            correlationId: CORRELATION,
          },
        ]);
        // The wallet's log shows the top-up like any other.
        const logs = (await user.get('/api/log/self/?type=1')).body.data as PageOf<{
          quota: number;
        }>;
        expect(logs.items.map((row) => row.quota)).toEqual([QUOTA]);
      } finally {
        await gateway.stop();
      }
    }
  });
});
