import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { USER_ID_HEADER } from '@tollgate/contracts';
import { Authenticator } from '../../apps/gateway/src/auth/authenticator';
import { SESSION_COOKIE, SessionCodec } from '../../apps/gateway/src/auth/session-codec';
import { loadConfig } from '../../apps/gateway/src/config/app-config';
import { createApp } from '../../apps/gateway/src/create-app';
import { PasswordHasher } from '../../apps/gateway/src/infrastructure/password-hasher';
import { collectRoutes } from './declared-routes';

export interface TestApp {
  readonly app: NestFastifyApplication;
  readonly url: string;
  readonly dataDir: string;
  /** `METHOD /url` of every route registered on the app's Fastify instance (declared-routes.ts). */
  readonly routes: readonly string[];
  close(): Promise<void>;
}

/** argon2's memory cost in the test apps: 64 KiB instead of 19 MiB (~2 ms a hash instead of ~150). */
const CHEAP_PASSWORD_KIB = 64;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'tollgate-e2e-'));
}

/** The whole gateway in this process on a random port, embedded storage in a temp DATA_DIR. */
export async function startTestApp(
  options: {
    dataDir?: string;
    env?: Record<string, string>;
    /** argon2 at its production cost (19 MiB a hash): for the tests that time the hashing itself. */
    productionPasswords?: boolean;
    /** Receives every JSON log line instead of stdout (the secrets-in-logs checks). */
    logLine?: (line: string) => void;
  } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDataDir();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    CRITICAL_RATE_LIMIT: '0',
    SESSION_SECRET: 'e2e-session-secret',
    CONSOLE_DIR: join(dataDir, 'no-console'),
    ...options.env,
  });
  const logLine = options.logLine;
  const app = await createApp(config, logLine && { write: (line: string) => logLine(line) });
  // Every sign-in, registration and root's bootstrap hashes with argon2: at 19 MiB each they hold
  // the two cores the suites share for minutes. Hashes carry their own cost, so this only makes
  // the new ones cheap; the code paths stay the same. The dummy hash unknown logins verify against
  // was started at production cost when the hasher was built: dropped, it is rebuilt cheap.
  if (!options.productionPasswords)
    Object.assign(app.get(PasswordHasher), { memorySize: CHEAP_PASSWORD_KIB, dummy: null });
  // Nest registers its routes when the app initialises (in listen): the hook sees every one.
  const routes = collectRoutes(app.getHttpAdapter().getInstance());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  return { app, url, dataDir, routes, close: () => app.close() };
}

/** A signed-in console client: keeps the session cookie and sends New-Api-User like the console. */
export class ConsoleClient {
  readonly agent: ReturnType<typeof request.agent>;
  userId = 0;

  constructor(readonly url: string) {
    this.agent = request.agent(url);
  }

  /** A request of this method with the console's header, nothing sent yet. */
  open(method: 'get' | 'post' | 'put' | 'delete', path: string): request.Test {
    const test = this.agent[method](path);
    return this.userId ? test.set(USER_ID_HEADER, String(this.userId)) : test;
  }

  get(path: string) {
    return this.open('get', path);
  }
  post(path: string, body?: object) {
    return this.open('post', path).send(body ?? {});
  }
  put(path: string, body?: object) {
    return this.open('put', path).send(body ?? {});
  }
  delete(path: string) {
    return this.open('delete', path);
  }

  async login(username: string, password: string): Promise<this> {
    const res = await this.agent.post('/api/user/login').send({ username, password });
    if (!res.body.success) throw new Error(`login ${username} failed: ${res.body.message}`);
    this.userId = res.body.data.id;
    return this;
  }
}

export const ROOT = { username: 'root', password: '123456' } as const;

export async function loginRoot(url: string): Promise<ConsoleClient> {
  return new ConsoleClient(url).login(ROOT.username, ROOT.password);
}

/**
 * A session cookie of `userId` that the app signed `ageMs` ago (as if signed in then), sent with
 * New-Api-User: for what depends on how long ago the user signed in.
 */
export function agedSession(t: TestApp, userId: number, ageMs: number) {
  const cookie = t.app
    .get(Authenticator)
    .sessions.encode(SessionCodec.start(userId, Date.now() - ageMs));
  const open = (method: 'get' | 'put', path: string) => {
    const test = method === 'get' ? request(t.url).get(path) : request(t.url).put(path);
    return test.set('Cookie', `${SESSION_COOKIE}=${cookie}`).set(USER_ID_HEADER, String(userId));
  };
  return {
    get: (path: string) => open('get', path),
    put: (path: string, body: object) => open('put', path).send(body),
  };
}

/** Registers through the public endpoint and signs in. */
export async function registerAndLogin(
  url: string,
  username: string,
  password = 'password123',
  extra: object = {},
) {
  const res = await request(url)
    .post('/api/user/register')
    .send({ username, password, password2: password, ...extra });
  if (!res.body.success) throw new Error(`register ${username} failed: ${res.body.message}`);
  return new ConsoleClient(url).login(username, password);
}

/** Root creates a user and promotes it to administrator. */
export async function createAdmin(
  url: string,
  root: ConsoleClient,
  username: string,
  password = 'password123',
) {
  await root.post('/api/user/', { username, password });
  const admin = await new ConsoleClient(url).login(username, password);
  const promoted = await root.post('/api/user/manage', { id: admin.userId, action: 'promote' });
  if (!promoted.body.success) throw new Error(`promote failed: ${promoted.body.message}`);
  return admin;
}
