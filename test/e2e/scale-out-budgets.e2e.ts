/**
 * Scale-out budgets: three gateway processes on one DATA_DIR (SCALE_OUT=on) behind a round-robin
 * client. A periodic budget is leased per period window like a balance (docs/budgets.md), so the
 * processes together never pass it.
 */
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { storedReceipts } from '../support/relay-helpers';
import type { RunningGateway } from '../support/start-gateway';
import {
  chatStatus,
  knownEverywhere,
  setOption,
  startScaleOutCluster,
  type ScaleOutCluster,
} from '../support/scale-out-cluster';

jest.setTimeout(120_000);

const MODEL = 'gpt-4o-mini';
/** ModelPrice 0.002 USD a call = 1000 quota units, reserved and charged alike. */
const PER_CALL = 1000;
/** A daily budget of 10 calls, far below the balance (100 calls) and one lease slice (20 calls). */
const DAILY_BUDGET = 10 * PER_CALL;
const CALLS = 60;
const SCALE_OUT_ENV = {
  SCALE_OUT: 'on',
  LEASE_TTL_MS: '3000',
  LEASE_SLICE_QUOTA: String(20 * PER_CALL),
};

/** Registers `name` (a balance of 100 calls: beforeAll); `budget` runs before its key is made. */
async function register(
  url: string,
  root: GatewaySession,
  name: string,
  budget: (session: GatewaySession) => Promise<void>,
  token: Record<string, unknown>,
) {
  const password = `${name}-password`;
  await gatewayApi(url, '/api/user/register', {
    method: 'POST',
    body: { username: name, password, password2: password },
  });
  const session = await gatewayLogin(url, name, password);
  await budget(session);
  await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body: { name: 'k', unlimited_quota: true, ...token },
    ...session,
  });
  const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...session });
  const { key, id } = (tokens.data as Array<{ key: string; id: number }>)[0]!;
  return { session, key, tokenId: id };
}

/** The budget leases (BalanceLeased with a window) on `streamId`. */
const budgetLeases = (dataDir: string, streamId: string) =>
  readStoredEvents(dataDir, { streamId }).filter(
    (event) => event.type === 'BalanceLeased' && 'window' in event.data,
  );

describe('scale-out: periodic budgets leased across three processes', () => {
  let upstream: MockUpstream;
  let dataDir: string;
  let cluster: ScaleOutCluster;
  let gateways: readonly RunningGateway[];
  let root: GatewaySession;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    cluster = await startScaleOutCluster(SCALE_OUT_ENV);
    ({ dataDir, gateways, root } = cluster);
    await setOption(gateways[0]!.url, root, 'ModelPrice', JSON.stringify({ [MODEL]: 0.002 }));
    await setOption(gateways[0]!.url, root, 'QuotaForNewUser', String(100 * PER_CALL));
    await gatewayApi(gateways[1]!.url, '/api/channel/', {
      method: 'POST',
      body: { type: 1, name: 'mock', key: 'sk-up', base_url: upstream.url, models: MODEL },
      ...root,
    });
  });

  afterAll(async () => {
    await cluster?.stop();
    await upstream?.close();
  });

  /** CALLS concurrent calls spread round-robin; the served count, every refusal a 429. */
  async function load(key: string): Promise<number> {
    const statuses = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => chatStatus(gateways[i % 3]!.url, key, MODEL)),
    );
    const served = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(
      true,
    );
    return served;
  }

  /** What the receipts charged once every served call's receipt is in the log. */
  async function chargedOnce(userId: number, served: number): Promise<number> {
    await waitUntil(
      () => storedReceipts(dataDir, userId).length === served,
      'every served call has its receipt',
    );
    return storedReceipts(dataDir, userId).reduce((sum, receipt) => sum + receipt.quota, 0);
  }

  it("a token's daily budget for 10 calls serves at most 10 of 60 over the processes", async () => {
    const { session, key, tokenId } = await register(
      gateways[0]!.url,
      root,
      'tbudget',
      async () => undefined,
      { period_quota: DAILY_BUDGET, period: 'day' },
    );
    await knownEverywhere(gateways, key);
    const served = await load(key);
    console.log(`${CALLS} calls on a token budget for 10: ${served} served`);
    // Per-call prices: the bound is 0, whichever process holds the budget's lease.
    expect(served).toBeLessThanOrEqual(10);
    expect(served).toBeGreaterThan(0);
    expect(await chargedOnce(session.userId, served)).toBeLessThanOrEqual(DAILY_BUDGET);
    const leases = budgetLeases(dataDir, `token-${tokenId}`);
    expect(leases.length).toBeGreaterThan(0);
    for (const lease of leases) {
      const data = lease.data as { expiresAt: number; window: { end: number } };
      expect(data.expiresAt).toBeLessThanOrEqual(data.window.end);
    }
  });

  it("a user's daily budget holds the same way across the processes", async () => {
    const { session, key } = await register(
      gateways[2]!.url,
      root,
      'ubudget',
      async (user) => {
        await gatewayApi(gateways[2]!.url, '/api/user/', {
          method: 'PUT',
          body: { id: user.userId, period_quota: DAILY_BUDGET, period: 'day' },
          ...root,
        });
      },
      {},
    );
    await knownEverywhere(gateways, key);
    const served = await load(key);
    console.log(`${CALLS} calls on a user budget for 10: ${served} served`);
    expect(served).toBeLessThanOrEqual(10);
    expect(served).toBeGreaterThan(0);
    expect(await chargedOnce(session.userId, served)).toBeLessThanOrEqual(DAILY_BUDGET);
    expect(budgetLeases(dataDir, `billing-${session.userId}`).length).toBeGreaterThan(0);
  });
});
