/**
 * Scale-out: three gateway processes on one DATA_DIR (SCALE_OUT=on), each a real OS
 * process, behind a round-robin client. Balance leases keep them together from overdrawing a user;
 * changes made through one process reach the others through the log.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { storedReceipts } from '../support/relay-helpers';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { tempDataDir } from '../support/test-app';
import { knownEverywhere, setOption } from '../support/scale-out-cluster';

jest.setTimeout(180_000);

const MODEL = 'gpt-4o-mini';
/** ModelPrice 0.002 USD a call = 1000 quota units, reserved and charged alike. */
const PER_CALL = 1000;
const SCALE_OUT_ENV = {
  SCALE_OUT: 'on',
  LEASE_TTL_MS: '3000',
  LEASE_SLICE_QUOTA: String(5 * PER_CALL),
};

/**
 * Registers `name` with `quota` (QuotaForNewUser set just before) and a token: unlimited, or
 * limited to `tokenQuota`.
 */
async function userWithKey(
  url: string,
  root: GatewaySession,
  name: string,
  quota: number,
  tokenQuota?: number,
) {
  await setOption(url, root, 'QuotaForNewUser', String(quota));
  const password = `${name}-password`;
  await gatewayApi(url, '/api/user/register', {
    method: 'POST',
    body: { username: name, password, password2: password },
  });
  const session = await gatewayLogin(url, name, password);
  await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body:
      tokenQuota === undefined
        ? { name: 'k', unlimited_quota: true }
        : { name: 'k', unlimited_quota: false, remain_quota: tokenQuota },
    ...session,
  });
  const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...session });
  return { session, key: (tokens.data as Array<{ key: string }>)[0]!.key };
}

/** One chat call; the status, or 0 when the process did not answer (killed). */
async function call(url: string, key: string): Promise<number> {
  try {
    const res = await request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }),
    });
    await res.body.dump();
    return res.statusCode;
  } catch {
    return 0;
  }
}

/** Σ quota granted to `userId` on its billing stream (QuotaGranted), as the log holds it. */
function credited(dataDir: string, userId: number): number {
  return readStoredEvents(dataDir, { streamId: `billing-${userId}` })
    .filter((event) => event.type === 'QuotaGranted')
    .reduce((sum, event) => sum + Number((event.data as { amount: number }).amount), 0);
}

const charged = (dataDir: string, userId: number) =>
  storedReceipts(dataDir, userId).reduce((sum, receipt) => sum + receipt.quota, 0);

describe('scale-out: three gateway processes on one DATA_DIR', () => {
  let upstream: MockUpstream;
  let dataDir: string;
  const gateways: RunningGateway[] = [];
  let root: GatewaySession;
  let channelId: number;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    dataDir = tempDataDir();
    // The first process bootstraps root; the other two join the same DATA_DIR.
    gateways.push(await startGateway({ dataDir, env: SCALE_OUT_ENV }));
    gateways.push(
      ...(await Promise.all([
        startGateway({ dataDir, env: SCALE_OUT_ENV }),
        startGateway({ dataDir, env: SCALE_OUT_ENV }),
      ])),
    );
    root = await gatewayLogin(gateways[0]!.url, 'root', '123456');
    await setOption(gateways[0]!.url, root, 'ModelPrice', JSON.stringify({ [MODEL]: 0.002 }));
    const created = await gatewayApi(gateways[1]!.url, '/api/channel/', {
      method: 'POST',
      body: { type: 1, name: 'mock', key: 'sk-up', base_url: upstream.url, models: MODEL },
      ...root,
    });
    channelId = (created.data.ids as number[])[0]!;
  });

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await upstream?.close();
  });

  it('a plain gateway cannot join a scale-out DATA_DIR (nor the other way round)', async () => {
    await expect(startGateway({ dataDir })).rejects.toThrow(/in use/);
  });

  it('an option or a channel changed through one process is seen by the others promptly', async () => {
    const { key } = await userWithKey(gateways[0]!.url, root, 'watcher', 1);
    await knownEverywhere(gateways, key);
    const others = gateways.slice(1);
    /** ms until every other process shows the change (printed for the record, not asserted). */
    const seenAfter = async (
      what: string,
      shows: (gateway: RunningGateway) => Promise<boolean>,
    ) => {
      const changed = Date.now();
      const seen = await Promise.all(
        others.map(async (gateway) => {
          await waitUntil(() => shows(gateway), `${gateway.url} shows ${what}`);
          return Date.now() - changed;
        }),
      );
      console.log(`${what} seen by the other processes after ${seen.join(', ')} ms`);
      return seen;
    };
    await setOption(gateways[0]!.url, root, 'SystemName', 'Scaled Gate');
    const option_ = await seenAfter('an option change', async (gateway) => {
      const status = await gatewayApi(gateway.url, '/api/status', { method: 'GET' });
      return status.data.system_name === 'Scaled Gate';
    });
    await gatewayApi(gateways[0]!.url, '/api/channel/', {
      method: 'PUT',
      body: { id: channelId, models: `${MODEL},gpt-4o` },
      ...root,
    });
    const channel = await seenAfter('a channel change', async (gateway) => {
      const res = await request(`${gateway.url}/v1/models`, {
        headers: { authorization: `Bearer sk-${key}` },
      });
      const body = (await res.body.json()) as { data: Array<{ id: string }> };
      return body.data.some((model) => model.id === 'gpt-4o');
    });
    expect([...option_, ...channel]).toHaveLength(4);
  });

  it('300 concurrent calls on a balance that covers 30: at most 30 served, never below 0', async () => {
    const { session, key } = await userWithKey(gateways[2]!.url, root, 'lessee', 30 * PER_CALL);
    await knownEverywhere(gateways, key);
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call(gateways[i % 3]!.url, key)),
    );
    const served = statuses.filter((status) => status === 200).length;
    console.log(`300 calls on a balance for 30: ${served} served`);
    expect(served).toBeLessThanOrEqual(30);
    expect(served).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 403)).toBe(
      true,
    );
    // The receipts of every process are in the log: what they charged is what was served.
    await waitUntil(
      () => storedReceipts(dataDir, session.userId).length === served,
      'every served call has its receipt',
    );
    const spent = charged(dataDir, session.userId);
    expect(spent).toBe(served * PER_CALL);
    expect(credited(dataDir, session.userId) - spent).toBeGreaterThanOrEqual(0);
    // Each process's read of the balance comes to the same figure: Σ events.
    for (const gateway of gateways)
      await waitUntil(async () => {
        const self = await gatewayApi(gateway.url, '/api/user/self', { method: 'GET', ...session });
        return self.data.quota === 30 * PER_CALL - spent;
      }, `${gateway.url} shows the balance the events sum to`);
    // The leases were events on the user's billing stream, and were given back once idle.
    const leases = readStoredEvents(dataDir, { streamId: `billing-${session.userId}` });
    expect(leases.some((event) => event.type === 'BalanceLeased')).toBe(true);
    await waitUntil(() => {
      const events = readStoredEvents(dataDir, { streamId: `billing-${session.userId}` });
      const opened = events.filter((event) => event.type === 'BalanceLeased').length;
      const closed = events.filter((event) => event.type === 'BalanceLeaseReturned').length;
      return opened === closed;
    }, 'every idle lease returned');
  });

  it("a limited token's quota holds across the processes too", async () => {
    const { session, key } = await userWithKey(
      gateways[1]!.url,
      root,
      'capped',
      100 * PER_CALL,
      10 * PER_CALL,
    );
    await knownEverywhere(gateways, key);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(gateways[i % 3]!.url, key)),
    );
    const served = statuses.filter((status) => status === 200).length;
    console.log(`60 calls on a token for 10: ${served} served`);
    expect(served).toBeLessThanOrEqual(10);
    expect(served).toBeGreaterThan(0);
    await waitUntil(
      () => storedReceipts(dataDir, session.userId).length === served,
      'every served call has its receipt',
    );
    const tokenEvents = readStoredEvents(dataDir, { type: 'BalanceLeased' }).filter(
      (event) => (event.data as { userId: number }).userId === session.userId,
    );
    expect(tokenEvents.some((event) => 'tokenId' in event.data)).toBe(true);
  });

  it('kill -9 of one process under load: the others go on, its lease expires, balance = Σ events', async () => {
    const budget = 40 * PER_CALL;
    const { session, key } = await userWithKey(gateways[0]!.url, root, 'survivor', budget);
    await knownEverywhere(gateways, key);
    const victim = gateways[1]!;
    // The victim takes a lease first, then the load runs on all three while it dies.
    expect(await call(victim.url, key)).toBe(200);
    const load = Promise.all(Array.from({ length: 60 }, (_, i) => call(gateways[i % 3]!.url, key)));
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;
    const statuses = await load;
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    // Its lease ends by an event another process wrote once it expired.
    await waitUntil(
      () =>
        readStoredEvents(dataDir, { streamId: `billing-${session.userId}` }).some(
          (event) => event.type === 'BalanceLeaseExpired',
        ),
      "the dead process's lease expired",
      20_000,
    );
    // What it held is spendable again: the survivors spend the balance down until both refuse.
    const survivors = [gateways[0]!, gateways[2]!];
    for (;;) {
      const round = await Promise.all(survivors.map((gateway) => call(gateway.url, key)));
      expect(round.every((status) => status === 200 || status === 403)).toBe(true);
      if (round.every((status) => status === 403)) break;
    }
    // A call is answered before its receipt is durable (batched appends): each process's read of
    // the balance comes, once the last receipts landed, to what the events sum to.
    let left = NaN;
    for (const gateway of survivors)
      await waitUntil(async () => {
        const self = await gatewayApi(gateway.url, '/api/user/self', { method: 'GET', ...session });
        left = credited(dataDir, session.userId) - charged(dataDir, session.userId);
        return self.data.quota === left;
      }, `${gateway.url} shows the balance the events sum to`);
    expect(left).toBeGreaterThanOrEqual(0);
    // Less than a call free, plus less than a call left on each survivor's lease.
    expect(left).toBeLessThan(3 * PER_CALL);
  });
});

/** apps/projector as its own process on `dataDir`; resolves once it projects. */
async function startProjector(dataDir: string) {
  const child = spawn(
    process.execPath,
    [join(__dirname, '../../dist/apps/projector/src/main.js')],
    {
      env: { ...process.env, DATA_DIR: dataDir, ...SCALE_OUT_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntil(() => output.includes('Projecting'), `the projector started:\n${output}`, 30_000);
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('scale-out: a projector process and gateways that only follow (PROJECTIONS=off)', () => {
  it('the read models are written by the projector; every gateway reads them and its own writes', async () => {
    const dataDir = tempDataDir();
    const projector = await startProjector(dataDir);
    const env = { ...SCALE_OUT_ENV, PROJECTIONS: 'off' };
    const first = await startGateway({ dataDir, env });
    const second = await startGateway({ dataDir, env });
    try {
      const root = await gatewayLogin(first.url, 'root', '123456');
      // A write through one gateway is readable at once through it (read-your-writes on the
      // projector head) and through the other.
      await gatewayApi(second.url, '/api/user/', {
        method: 'POST',
        body: { username: 'followed', password: 'followed-password', display_name: 'F' },
        ...root,
      });
      // Answered once the projector head passed the write: both read it at once.
      for (const gateway of [second, first]) {
        const page = await gatewayApi(gateway.url, '/api/user/search?keyword=followed', {
          method: 'GET',
          ...root,
        });
        expect(page.data.total).toBe(1);
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await projector.stop();
    }
    expect(projector.output()).toContain('SIGTERM: stopping');
  });
});
