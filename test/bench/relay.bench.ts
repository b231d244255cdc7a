import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { startGateway, type RunningGateway } from '../support/start-gateway';

/**
 * Relay throughput against the physical limit measured in the same run: the same requests through
 * a bare pass-through proxy (node:http + an undici Pool, no auth, no billing) and through the
 * built gateway (token admission, reservation, routing, settle, one usage event per request,
 * appended with group commit). The upstream is a minimal OpenAI-wire server in its own process.
 * Prints requests/s and latency of each and the gateway/bare ratios; nothing is asserted on speed.
 * BENCH_SECONDS and BENCH_CONNECTIONS override the load.
 */
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 6);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);

const UPSTREAM_JS = `
const http = require('node:http');
const json = JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } });
const chunk = (c) => 'data: ' + JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1,
  model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: c } }] }) + '\\n\\n';
const sse = ['Hel', 'lo ', 'the', 're', '!'].map(chunk).join('') +
  'data: ' + JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini',
  choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } }) + '\\n\\ndata: [DONE]\\n\\n';
const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    const stream = Buffer.concat(parts).includes('"stream":true');
    if (stream) { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(sse); }
    else { res.writeHead(200, { 'content-type': 'application/json' }); res.end(json); }
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`;

const BARE_PROXY_JS = `
const http = require('node:http');
const { Pool } = require('undici');
const pool = new Pool(process.argv[1], { connections: 256 });
const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', async () => {
    try {
      const up = await pool.request({ method: 'POST', path: req.url, body: Buffer.concat(parts),
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-up' } });
      res.writeHead(up.statusCode, { 'content-type': up.headers['content-type'] });
      for await (const c of up.body) res.write(c);
      res.end();
    } catch (e) { res.writeHead(502); res.end(String(e)); }
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`;

function startScript(
  source: string,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', source, ...args], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => {
      const port = /PORT (\d+)/.exec(d.toString())?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.once('exit', (code) => reject(new Error(`script exited with ${code}`)));
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, key: string, stream: boolean): Promise<Result> {
  const body = JSON.stringify({
    model: 'gpt-4o-mini',
    stream,
    messages: [{ role: 'user', content: 'Say hello to the benchmark, please.' }],
  });
  const result = await autocannon({
    url: `${url}/v1/chat/completions`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
    body,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function api(
  gateway: RunningGateway,
  path: string,
  init: RequestInit & { cookie?: string; userId?: number },
) {
  const res = await fetch(`${gateway.url}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.userId ? { 'New-Api-User': String(init.userId) } : {}),
    },
  });
  const body = (await res.json()) as { success: boolean; message: string; data: any };
  if (!body.success) throw new Error(`${path}: ${body.message}`);
  return { body, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? init.cookie ?? '' };
}

describe('relay throughput vs a bare pass-through proxy', () => {
  let upstream: { child: ChildProcess; url: string };
  let bare: { child: ChildProcess; url: string };
  let gateway: RunningGateway;
  let key = '';

  beforeAll(async () => {
    upstream = await startScript(UPSTREAM_JS);
    bare = await startScript(BARE_PROXY_JS, [upstream.url]);
    gateway = await startGateway({
      env: { LOG_LEVEL: 'error' },
      // BENCH_PROFILE=<dir>: a CPU profile of the gateway process, written when it stops.
      nodeArgs: process.env['BENCH_PROFILE']
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROFILE']}`]
        : [],
    });
    const rootLogin = await api(gateway, '/api/user/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'root', password: '123456' }),
    });
    const root = { cookie: rootLogin.cookie, userId: rootLogin.body.data.id as number };
    for (const [k, value] of [['QuotaForNewUser', String(1e12)]]) {
      await api(gateway, '/api/option/', {
        method: 'PUT',
        body: JSON.stringify({ key: k, value }),
        ...root,
      });
    }
    await api(gateway, '/api/channel/', {
      method: 'POST',
      body: JSON.stringify({
        type: 1,
        name: 'bench',
        key: 'sk-up',
        base_url: upstream.url,
        models: 'gpt-4o-mini',
        group: 'default',
      }),
      ...root,
    });
    await api(gateway, '/api/user/register', {
      method: 'POST',
      body: JSON.stringify({
        username: 'bench',
        password: 'bench-password',
        password2: 'bench-password',
      }),
    });
    const login = await api(gateway, '/api/user/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    const user = { cookie: login.cookie, userId: login.body.data.id as number };
    await api(gateway, '/api/token/', {
      method: 'POST',
      body: JSON.stringify({ name: 'bench', unlimited_quota: true }),
      ...user,
    });
    const tokens = await api(gateway, '/api/token/?p=0&size=10', { method: 'GET', ...user });
    key = (tokens.body.data as Array<{ key: string }>)[0]!.key;
  });

  afterAll(async () => {
    await gateway?.stop();
    bare?.child.kill();
    upstream?.child.kill();
  });

  it.each([false, true])('stream=%s', async (stream) => {
    await load(bare.url, key, stream); // warm-up (JIT, pools)
    await load(gateway.url, key, stream);
    const direct = await load(upstream.url, key, stream);
    const baseline = await load(bare.url, key, stream);
    const relay = await load(gateway.url, key, stream);
    const line = (name: string, r: Result) =>
      `${name.padEnd(10)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors} non-2xx ${r.non2xx}`;
    console.log(
      [
        `chat completions, stream=${stream}, ${CONNECTIONS} connections, ${SECONDS} s each (2 shared cores)`,
        line('upstream', direct),
        line('bare', baseline),
        line('gateway', relay),
        `gateway / bare: throughput ${(relay.rps / baseline.rps).toFixed(2)}, p50 latency ×${(relay.p50 / Math.max(baseline.p50, 1)).toFixed(2)}`,
      ].join('\n'),
    );
    expect(relay.non2xx).toBe(0);
    expect(relay.errors).toBe(0);
  });
});
