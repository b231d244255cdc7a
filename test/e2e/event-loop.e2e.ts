import { request as httpRequest } from 'node:http';
import { Worker } from 'node:worker_threads';
import { startGateway, type RunningGateway } from '../support/start-gateway';

jest.setTimeout(120_000);

/**
 * While clients send the worst bodies the edge sees (a 2.3 MB object of 200,000 keys, the largest
 * allowed bodies of many keys and of deep nesting, long strings) and a crowd of logins runs argon2,
 * the gateway's event loop stays free: /api/status answers within 100 ms. The gateway runs as its
 * own process (built with `npm run build:server`); the attackers run in a worker thread so their
 * own sending does not delay the probe, which runs here.
 *
 * The machine is two cores shared with other work (other test files run beside this one), where
 * even an idle server shows spikes of tens of ms: the 95th percentile under attack is held to
 * 100 ms beyond the idle 95th percentile measured just before, in the same run; all are printed.
 */

/** The attackers' program: loops over the bodies until told to stop, then reports its count. */
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, bodies, logins } = workerData;
let attacking = true;
parentPort.on('message', () => { attacking = false; });
const post = (body, type) => new Promise((resolve) => {
  const req = http.request(url + '/api/user/login', {
    method: 'POST',
    headers: { 'content-type': type, 'content-length': body.length },
  }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
  req.on('error', () => resolve(-1)); // a refused upload may close the socket mid-body
  req.end(body);
});
const loops = Array.from({ length: 1 }, async (_, a) => {
  let sent = 0;
  while (attacking) {
    const { body, type } = bodies[(a + sent) % bodies.length];
    await post(body, type);
    sent += 1;
  }
  return sent;
});
const crowd = logins.map((body) => post(Buffer.from(body), 'application/json'));
Promise.all([Promise.all(loops), Promise.all(crowd)]).then(([sent, statuses]) =>
  parentPort.postMessage({ sent: sent.reduce((x, y) => x + y, 0), statuses }));
`;

const LIMIT_MS = 100;

function probe(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    httpRequest(`${url}/api/status`, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    })
      .on('error', reject)
      .end();
  });
}

const keys = (n: number) =>
  `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')},"username":"x","password":"y"}`;

describe('event loop under hostile input', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ env: { PASSWORD_ATTEMPT_LIMIT: '0' } });
  });
  afterAll(() => gateway?.stop());

  /** One attack window: idle probes, then probes while the attacker runs; p95s and counts. */
  async function measure() {
    const idle: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      idle.push(await probe(gateway.url));
      await new Promise((r) => setTimeout(r, 20));
    }
    const worst: Array<[string, string]> = [
      [keys(200_000), 'application/json'], // 2.3 MB: the body that froze the loop for 19 s
      [keys(5_000).slice(0, 60_000) + '}', 'application/json'], // under the size limit, far over the key limit
      ['{"a":'.repeat(12_000) + '1' + '}'.repeat(12_000), 'application/json'], // deep nesting
      [JSON.stringify({ username: 'x'.repeat(60_000), password: 'y' }), 'application/json'],
      [`username=${'x'.repeat(60_000)}&password=y`, 'application/x-www-form-urlencoded'],
    ];
    // 40 logins for unknown users at once: each runs a full argon2 verification (off the loop).
    const logins = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({ username: `ghost${i}`, password: 'password123' }),
    );
    const attacker = new Worker(ATTACKER, {
      eval: true,
      workerData: {
        url: gateway.url,
        bodies: worst.map(([body, type]) => ({ body: Buffer.from(body), type })),
        logins,
      },
    });
    const report = new Promise<{ sent: number; statuses: number[] }>((resolve, reject) => {
      attacker.once('message', resolve);
      attacker.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 200)); // let the attack get going
    const latencies: number[] = [];
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      latencies.push(await probe(gateway.url));
      await new Promise((r) => setTimeout(r, 20));
    }
    attacker.postMessage('stop');
    const { sent, statuses } = await report;
    await attacker.terminate();
    const p = (xs: number[], q: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
    const result = {
      sent,
      statuses,
      idleP95: p(idle, 0.95),
      p50: p(latencies, 0.5),
      p95: p(latencies, 0.95),
      max: p(latencies, 1),
    };
    console.log(
      `event loop: ${latencies.length} probes during ${sent} hostile bodies and 40 logins: ` +
        `p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms ` +
        `(idle p95 ${result.idleP95.toFixed(1)} ms)`,
    );
    return result;
  }

  it(`/api/status answers within ${LIMIT_MS} ms while one client sends the worst bodies and 40 logins arrive`, async () => {
    // A request that blocks the loop (the 19 s of the 200,000-key body) shows in every window;
    // CPU taken by other jobs on this shared machine comes and goes. So: up to three windows, and
    // one within the limit passes.
    let result = await measure();
    for (let tries = 1; tries < 3 && result.p95 >= result.idleP95 + LIMIT_MS; tries += 1)
      result = await measure();
    expect(result.sent).toBeGreaterThan(10);
    expect(result.statuses.every((s) => s === 200)).toBe(true);
    expect(result.p95).toBeLessThan(result.idleP95 + LIMIT_MS);
  });
});
