/**
 * Scale-out rate limits: three gateway processes on one DATA_DIR (SCALE_OUT=on) behind a
 * round-robin client. A token's rpm holds across them (allowance slices per fixed minute,
 * docs/scale-out.md "Rate limits across processes"), not once per process.
 */
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import type { RunningGateway } from '../support/start-gateway';
import {
  chatStatus,
  knownEverywhere,
  setOption,
  startScaleOutCluster,
  type ScaleOutCluster,
} from '../support/scale-out-cluster';

jest.setTimeout(180_000);

const MODEL = 'gpt-4o-mini';
const RPM = 6;
const CALLS = 30;
const MINUTE_MS = 60_000;
/** Calls that might straddle a minute edge wait for the next minute instead (fixed windows). */
const EDGE_MARGIN_MS = 10_000;
/** Plenty for every call: the rpm, not the balance, is what refuses. */
const NEW_USER_QUOTA = 100_000_000;
const CONCURRENCY = 2;
/** Long enough that every call of a burst is still running when the last one arrives. */
const SLOW_ANSWER_MS = 3_000;
const SCALE_OUT_ENV = { SCALE_OUT: 'on', LEASE_TTL_MS: '3000' };

/** Registers `name` (QuotaForNewUser: plenty) with one unlimited-quota token with these limits. */
async function limitedToken(
  url: string,
  name: string,
  limits: { rate_limit_rpm?: number; rate_limit_concurrency?: number },
) {
  const password = `${name}-password`;
  await gatewayApi(url, '/api/user/register', {
    method: 'POST',
    body: { username: name, password, password2: password },
  });
  const session = await gatewayLogin(url, name, password);
  await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body: { name: 'k', unlimited_quota: true, ...limits },
    ...session,
  });
  const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...session });
  const [token] = tokens.data as Array<{ id: number; key: string }>;
  return { id: token!.id, key: token!.key };
}

/** Waits for the next minute when less than EDGE_MARGIN_MS is left of this one. */
async function clearOfMinuteEdge(): Promise<number> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < EDGE_MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, left + 100));
  return Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
}

/** Σ allowance taken on a token's rpm stream for one window, as the log holds it. */
const allowanceTaken = (dataDir: string, tokenId: number, window: number) =>
  readStoredEvents(dataDir, { streamId: `allowance-token-${tokenId}-rpm-${window}` }).reduce(
    (sum, event) => sum + Number((event.data as { amount: number }).amount),
    0,
  );

describe('scale-out rate limits: three gateway processes on one DATA_DIR', () => {
  let upstream: MockUpstream;
  let dataDir: string;
  let cluster: ScaleOutCluster;
  let gateways: readonly RunningGateway[];
  let root: GatewaySession;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    cluster = await startScaleOutCluster(SCALE_OUT_ENV);
    ({ dataDir, gateways, root } = cluster);
    await setOption(gateways[0]!.url, root, 'QuotaForNewUser', String(NEW_USER_QUOTA));
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

  it(`a token limited to ${RPM} a minute gets ${RPM} of ${CALLS} calls one after another`, async () => {
    const token = await limitedToken(gateways[0]!.url, 'paced', { rate_limit_rpm: RPM });
    await knownEverywhere(gateways, token.key);
    const window = await clearOfMinuteEdge();
    const statuses: number[] = [];
    for (let i = 0; i < CALLS; i++)
      statuses.push(await chatStatus(gateways[i % 3]!.url, token.key, MODEL));
    const served = statuses.filter((status) => status === 200).length;
    console.log(`${CALLS} calls one after another at ${RPM} rpm: ${served} served`);
    // Counts known up front overshoot by nothing: exactly the limit, whichever process served.
    expect(served).toBe(RPM);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(
      true,
    );
    expect(allowanceTaken(dataDir, token.id, window)).toBe(RPM);
  });

  it(`${CALLS} concurrent calls on a token limited to ${RPM} a minute: at most ${RPM} served`, async () => {
    const token = await limitedToken(gateways[0]!.url, 'burst', { rate_limit_rpm: RPM });
    await knownEverywhere(gateways, token.key);
    const window = await clearOfMinuteEdge();
    const statuses = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => chatStatus(gateways[i % 3]!.url, token.key, MODEL)),
    );
    const served = statuses.filter((status) => status === 200).length;
    console.log(`${CALLS} concurrent calls at ${RPM} rpm: ${served} served`);
    expect(served).toBeLessThanOrEqual(RPM);
    expect(served).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(
      true,
    );
    expect(allowanceTaken(dataDir, token.id, window)).toBeLessThanOrEqual(RPM);
  });

  it(`a token limited to ${CONCURRENCY} at once runs at most ${CONCURRENCY} across the processes`, async () => {
    const token = await limitedToken(gateways[0]!.url, 'parallel', {
      rate_limit_concurrency: CONCURRENCY,
    });
    await knownEverywhere(gateways, token.key);
    const burst = 12;
    upstream.next({ latencyMs: SLOW_ANSWER_MS }, burst);
    const statuses = await Promise.all(
      Array.from({ length: burst }, (_, i) => chatStatus(gateways[i % 3]!.url, token.key, MODEL)),
    );
    upstream.reset();
    const served = statuses.filter((status) => status === 200).length;
    console.log(`${burst} concurrent slow calls at concurrency ${CONCURRENCY}: ${served} served`);
    // Per process alone that would be 2 on each of the three.
    expect(served).toBeLessThanOrEqual(CONCURRENCY);
    expect(served).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(
      true,
    );
    expect(
      readStoredEvents(dataDir, { streamId: `concurrency-token-${token.id}` }).some(
        (event) => event.type === 'SlotsHeld',
      ),
    ).toBe(true);
  });
});
