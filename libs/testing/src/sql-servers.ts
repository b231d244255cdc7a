/**
 * Real MariaDB and PostgreSQL servers for tests (Debian's `mariadb-server` and `postgresql`): each
 * gets a fresh data directory under a temp dir, listens on a free loopback TCP port (its unix
 * socket inside the temp dir), and has a user `tollgate` with a random password, so `url(db)`
 * carries user:password. Started as root, postgres runs as the `postgres` user (it refuses root)
 * and mariadbd with `--user=root`.
 *
 *   const mysql = await startMariaDb(dir);
 *   await mysql.createDatabase('oneapi');
 *   mysql.url('oneapi'); // mysql://tollgate:<password>@127.0.0.1:<port>/oneapi
 *   await mysql.stop();
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';

export interface SqlServer {
  /** `mysql://tollgate:<password>@127.0.0.1:<port>/<database>` or `postgres://…`. */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'tollgate';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
const isRoot = (): boolean => process.getuid?.() === 0;

/** MariaDB (mariadb-install-db + mariadbd) on 127.0.0.1:<free port>. */
export async function startMariaDb(baseDir: string): Promise<SqlServer> {
  const mariadbd = findBinary(['/usr/sbin/mariadbd', '/usr/bin/mariadbd'], 'mariadbd');
  const installDb = findBinary(
    ['/usr/bin/mariadb-install-db', '/usr/sbin/mariadb-install-db'],
    'mariadb-install-db',
  );
  if (!mariadbd || !installDb)
    throw new Error(
      'MariaDB is not installed (mariadbd / mariadb-install-db not found): apt-get install mariadb-server',
    );
  const dir = mkdtempSync(join(baseDir, 'mariadb-'));
  const dataDir = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
  const errorLog = join(dir, 'error.log');
  const asUser = isRoot() ? ['--user=root'] : [];
  const install = spawnSync(
    installDb,
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      ...asUser,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (install.status !== 0)
    throw new Error(
      `mariadb-install-db failed (${install.status ?? install.signal}):\n${tail(`${install.stdout}${install.stderr}`)}`,
    );
  const port = await freePort();
  const server = new ServerProcess(
    'MariaDB',
    spawn(
      mariadbd,
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--socket=${socket}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(dir, 'mariadb.pid')}`,
        `--log-error=${errorLog}`,
        `--tmpdir=${dir}`,
        '--skip-name-resolve',
        '--innodb-buffer-pool-size=32M',
        '--innodb-flush-log-at-trx-commit=0',
        ...asUser,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
    () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''),
  );
  const admin = () => createConnection({ socketPath: socket, user: 'root', password: '' });
  try {
    await server.waitUntil(async () => {
      const c = await admin();
      await c.end();
    });
    const password = randomBytes(12).toString('hex');
    const c = await admin();
    try {
      await c.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${password}'`);
      await c.query(`GRANT ALL PRIVILEGES ON *.* TO '${USER}'@'%'`);
    } finally {
      await c.end();
    }
    return {
      url: (database) =>
        `mysql://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
      createDatabase: async (name) => {
        const conn = await admin();
        try {
          await conn.query(
            `CREATE DATABASE \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`,
          );
        } finally {
          await conn.end();
        }
      },
      stop: async () => {
        await server.stop('SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** PostgreSQL (initdb + postgres of the newest /usr/lib/postgresql/<version>) on 127.0.0.1. */
export async function startPostgres(baseDir: string): Promise<SqlServer> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      'PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb): apt-get install postgresql',
    );
  const owner = isRoot() ? userIds('postgres') : undefined;
  const dir = serverDir(baseDir, 'postgres-', owner);
  const dataDir = join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwFile = join(dir, 'pwfile');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwFile, owner.uid, owner.gid);
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', PGTZ: 'UTC' };
  const init = spawnSync(
    join(bin, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      USER,
      `--pwfile=${pwFile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { encoding: 'utf8', timeout: 120_000, env, cwd: dir, ...owner },
  );
  rmSync(pwFile, { force: true });
  if (init.status !== 0)
    throw new Error(
      `initdb failed (${init.status ?? init.signal}):\n${tail(`${init.stdout}${init.stderr}`)}`,
    );
  const port = await freePort();
  const server = new ServerProcess(
    'PostgreSQL',
    spawn(
      join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'shared_buffers=16MB',
        '-c',
        'max_connections=20',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env, cwd: dir, ...owner },
    ),
    () => '',
  );
  // Over the unix socket (trust): the admin connection needs no password.
  const admin = async () => {
    const client = new Client({ host: dir, port, user: USER, database: 'postgres' });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  try {
    await server.waitUntil(async () => {
      const c = await admin();
      await c.end();
    });
    return {
      url: (database) =>
        `postgres://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
      createDatabase: async (name) => {
        const c = await admin();
        try {
          await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
        } finally {
          await c.end();
        }
      },
      // SIGINT: fast shutdown (open sessions are ended).
      stop: async () => {
        await server.stop('SIGINT');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A running server: its output kept for error messages, killed if the test process exits. */
class ServerProcess {
  private output = '';
  private readonly exited: Promise<void>;
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  constructor(
    private readonly name: string,
    private readonly child: ChildProcess,
    private readonly logFile: () => string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      child.once('exit', () => resolve());
      child.once('error', (error) => {
        this.output += `\n${error.message}`;
        resolve();
      });
    });
    process.once('exit', this.killOnExit);
  }

  private get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the server wrote (its log file, else its stdout/stderr). */
  log(): string {
    return tail(`${this.logFile()}${this.output}`);
  }

  /** Polls `probe` until it resolves; throws with the log tail on exit or after 30 s. */
  async waitUntil(probe: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let last: unknown;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(
          `${this.name} exited (${this.child.exitCode ?? this.child.signalCode}) while starting:\n${this.log()}`,
        );
      try {
        await probe();
        return;
      } catch (error) {
        last = error;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(
      `${this.name} did not answer within ${START_TIMEOUT_MS / 1000} s (${(last as Error | undefined)?.message ?? 'no attempt'}):\n${this.log()}`,
    );
  }

  /** `signal`, then SIGKILL if it has not exited within 30 s. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    if (!this.running) return;
    this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), STOP_TIMEOUT_MS);
    });
    const outcome = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

function findBinary(candidates: string[], name: string): string | undefined {
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return which.status === 0 && path !== '' ? path : undefined;
}

/** The bin directory of the newest PostgreSQL under /usr/lib/postgresql that has initdb. */
function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(`user ${name} is missing (apt-get install postgresql creates it)`);
  }
}

/**
 * A fresh directory under `baseDir` owned by `owner` (when given). When `owner` cannot reach it
 * (a parent only root may enter), a fresh directory under the system temp dir instead.
 */
function serverDir(baseDir: string, prefix: string, owner?: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(baseDir, prefix));
  if (!owner) return dir;
  chownSync(dir, owner.uid, owner.gid);
  chmodSync(dir, 0o700);
  if (spawnSync('test', ['-w', dir], owner).status === 0) return dir;
  rmSync(dir, { recursive: true, force: true });
  const fallback = mkdtempSync(join(tmpdir(), prefix));
  chownSync(fallback, owner.uid, owner.gid);
  chmodSync(fallback, 0o700);
  if (spawnSync('test', ['-w', fallback], owner).status !== 0)
    throw new Error(`${fallback} is not writable by uid ${owner.uid}`);
  return fallback;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address !== 'string'
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function tail(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
