import { JSON_MODEL, SLOW_MODEL, STREAM_MODEL } from './bench-shared';

/** A console session against the gateway's /api, as the browser would hold it. */
export class ApiSession {
  private cookie = '';
  userId = 0;

  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.userId ? { 'New-Api-User': String(this.userId) } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookie = res.headers.get('set-cookie');
    const session = setCookie && /session=[^;]+/.exec(setCookie);
    if (session) this.cookie = session[0];
    const json = (await res.json()) as { success: boolean; message: string; data: T };
    if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
    return json.data;
  }

  async login(username: string, password: string): Promise<this> {
    const data = await this.call<{ id: number }>('POST', '/api/user/login', { username, password });
    this.userId = data.id;
    return this;
  }
}

export interface BenchAccount {
  readonly admin: ApiSession;
  readonly userId: number;
  /** `sk-…` keys: one for the load, one for the durability probe. */
  readonly key: string;
  readonly probeKey: string;
  readonly probeTokenId: number;
}

/**
 * What an administrator does on a fresh install, through the real API: sign in as root, add a channel
 * pointing at the mock upstream, create a user with a large balance; the user creates two tokens.
 */
export async function setUpAccount(gatewayUrl: string, upstreamUrl: string): Promise<BenchAccount> {
  const admin = await new ApiSession(gatewayUrl).login('root', '123456');
  await admin.call('POST', '/api/channel/', {
    type: 1,
    name: 'bench-mock',
    key: 'sk-bench-upstream-key-0000000000000000',
    base_url: upstreamUrl,
    models: [JSON_MODEL, SLOW_MODEL, STREAM_MODEL].join(','),
    group: 'default',
  });
  const password = 'bench-password-1';
  await admin.call('POST', '/api/user/', { username: 'bench', password });
  const user = await new ApiSession(gatewayUrl).login('bench', password);
  await admin.call('PUT', '/api/user/', { id: user.userId, quota: 1_000_000_000_000 });
  const tokens: Array<{ id: number; key: string }> = [];
  for (const name of ['bench-load', 'bench-probe']) {
    await user.call('POST', '/api/token/', {
      name,
      unlimited_quota: true,
      remain_quota: 0,
      expired_time: -1,
    });
  }
  const list = await user.call<Array<{ id: number; name: string; key: string }>>(
    'GET',
    '/api/token/?p=0&size=10',
  );
  for (const name of ['bench-load', 'bench-probe']) {
    const token = list.find((t) => t.name === name);
    if (!token) throw new Error(`token ${name} missing from the list`);
    tokens.push(token);
  }
  return {
    admin,
    userId: user.userId,
    key: `sk-${tokens[0]!.key}`,
    probeKey: `sk-${tokens[1]!.key}`,
    probeTokenId: tokens[1]!.id,
  };
}
