import type { PageOf, TopUpOrderDto, UserDto } from '@tollgate/contracts';
import { SYSTEM_ACTOR, topUpOrderDecider } from '@tollgate/domain';
import { appendWhileStopped, storedCredits } from '../support/crash-helpers';
import { readStoredEvents } from '../support/e2e-helpers';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { ConsoleClient, tempDataDir } from '../support/test-app';

jest.setTimeout(120_000);

/**
 * kill -9 between an online top-up's two appends, with the gateway as its own process (built with
 * `npm run build:server`). A user opens an Epay order over HTTP, the gateway is killed with SIGKILL,
 * then the confirmation's first append alone — TopUpOrderPaid, decided by the same decider on the
 * order's stream from the command an Epay notify sends, with the notify's anonymous actor — is
 * written into its events.sqlite: what a process killed right after that append leaves on disk.
 * Every later start shows the credit exactly once, appended by the system, and the order paid.
 */
describe('an online top-up killed between "order paid" and "credit appended"', () => {
  const dataDir = tempDataDir();
  const CORRELATION = 'epay-notify-killed-mid-way';
  let tradeNo = '';
  let userId = 0;
  let before = 0;
  let money = 0;
  let quota = 0;

  const signIn = (gateway: RunningGateway, name: string, password: string) =>
    new ConsoleClient(gateway.url).login(name, password);
  const credits = () => storedCredits(dataDir, 'topup');

  beforeAll(async () => {
    const gateway = await startGateway({ dataDir });
    try {
      const root = await signIn(gateway, 'root', '123456');
      for (const [key, value] of [
        ['ServerAddress', 'https://gw.example.com'],
        ['PayAddress', 'https://pay.example.com/'],
        ['EpayId', '1001'],
        ['EpayKey', 'epay-merchant-key-crash'],
      ] as const)
        expect([key, (await root.put('/api/option/', { key, value })).body]).toEqual([
          key,
          expect.objectContaining({ success: true }),
        ]);
      expect(
        (await root.post('/api/user/', { username: 'crashtopup', password: 'password123' })).body,
      ).toMatchObject({ success: true });
      const user = await signIn(gateway, 'crashtopup', 'password123');
      userId = user.userId;
      before = ((await user.get('/api/user/self')).body.data as UserDto).quota;
      const pay = await user.post('/api/user/pay', { amount: 10, payment_method: 'alipay' });
      expect(pay.body).toMatchObject({ success: true, message: 'success' });
      tradeNo = (pay.body.data as Record<string, string>)['out_trade_no']!;
      expect(tradeNo).toMatch(new RegExp(`^USR${userId}NO[A-Za-z0-9]{6}\\d+$`));
      const [created] = readStoredEvents(dataDir, {
        streamId: `topup-${tradeNo}`,
        type: 'TopUpOrderCreated',
      });
      money = created!.data['money'] as number;
      quota = created!.data['quota'] as number;
      expect(created!.data).toMatchObject({ userId, amount: 10 });
      expect((pay.body.data as Record<string, string>)['money']).toBe(money.toFixed(2));
      expect(quota).toBeGreaterThan(0);
    } finally {
      process.kill(gateway.pid, 'SIGKILL');
      await gateway.exited;
    }
  });

  it('leaves the order paid and the user uncredited on disk', async () => {
    const paid = await appendWhileStopped(dataDir, (commands) =>
      commands.execute(
        `topup-${tradeNo}`,
        topUpOrderDecider,
        { type: 'ConfirmTopUpPayment', providerReference: `EP${tradeNo}`, money, provider: 'epay' },
        {
          actor: { kind: 'anonymous', id: null, role: null },
          correlationId: CORRELATION,
          lang: 'en',
        },
      ),
    );
    expect(paid.events.map((e) => e.type)).toEqual(['TopUpOrderPaid']);
    expect(readStoredEvents(dataDir, { streamId: `topup-${tradeNo}` }).map((e) => e.type)).toEqual([
      'TopUpOrderCreated',
      'TopUpOrderPaid',
    ]);
    expect(readStoredEvents(dataDir, { type: 'TopUpOrderPaid' })[0]!.data).toMatchObject({
      tradeNo,
      userId,
      quota,
      money,
    });
    expect(credits()).toHaveLength(0);
  });

  it('every later start shows the credit exactly once, by the system; the order is paid', async () => {
    for (let restart = 0; restart < 2; restart += 1) {
      const gateway = await startGateway({ dataDir });
      try {
        const user = await signIn(gateway, 'crashtopup', 'password123');
        expect(((await user.get('/api/user/self')).body.data as UserDto).quota).toBe(
          before + quota,
        );
        const [paid] = readStoredEvents(dataDir, { type: 'TopUpOrderPaid' });
        expect(readStoredEvents(dataDir, { type: 'TopUpOrderPaid' })).toHaveLength(1);
        expect(credits()).toEqual([
          {
            streamId: `billing-${userId}`,
            data: { userId, amount: quota, reason: 'topup', reference: `topup-${tradeNo}` },
            actor: SYSTEM_ACTOR,
            causationId: paid!.id,
            correlationId: CORRELATION,
          },
        ]);
        const own = (await user.get(`/api/user/topup/self?keyword=${tradeNo}`)).body
          .data as PageOf<TopUpOrderDto>;
        expect(own.items).toEqual([
          expect.objectContaining({
            trade_no: tradeNo,
            user_id: userId,
            status: 'success',
            credited: true,
            provider_reference: `EP${tradeNo}`,
            money,
            quota,
            completed_by: 0,
          }),
        ]);
        // The wallet's log shows the top-up once.
        const logs = (await user.get('/api/log/self/?type=1')).body.data as PageOf<{
          quota: number;
        }>;
        expect(logs.items.map((row) => row.quota)).toEqual([quota]);
      } finally {
        await gateway.stop();
      }
    }
  });
});
