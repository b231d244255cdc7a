/**
 * The console API of a gateway run as a child process (`startGateway`): plain HTTP with undici,
 * the session cookie and the `New-Api-User` header sent along. Throws on `success: false`.
 */
import { connect } from 'node:net';
import { request } from 'undici';

/** A console session: the cookie and the user id header value sent with it. */
export interface GatewaySession {
  cookie: string;
  userId: number;
}

export async function gatewayApi(
  url: string,
  path: string,
  init: { method: string; body?: object; cookie?: string; userId?: number },
) {
  const res = await request(`${url}${path}`, {
    method: init.method as 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.userId ? { 'new-api-user': String(init.userId) } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const setCookie = res.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
  const body = (await res.body.json()) as { success: boolean; message: string; data: any };
  if (!body.success) throw new Error(`${path}: ${body.message}`);
  return { data: body.data, cookie: cookie ?? init.cookie ?? '' };
}

export async function gatewayLogin(
  url: string,
  username: string,
  password: string,
): Promise<GatewaySession> {
  const res = await gatewayApi(url, '/api/user/login', {
    method: 'POST',
    body: { username, password },
  });
  return { cookie: res.cookie, userId: res.data.id as number };
}

/** True when a new TCP connection to the gateway is refused (its listener is closed). */
export function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
