/**
 * The projector child: the built gateway, alone on its DATA_DIR, writes its read models in a
 * process of its own that it starts, restarts and stops. Checked from outside: the process tree
 * (/proc), the HTTP API, the console's pushes and the gateway's log lines.
 */
import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { Socket } from 'socket.io-client';
import type { ChangedEvent } from '@tollgate/contracts';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { openConsoleSocket, socketConnected } from '../support/console-socket';
import { waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { childPidsOf, commandLineOf, isRunning } from '../support/proc-tree';
import { chatStatus, setOption } from '../support/scale-out-cluster';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { tempDataDir } from '../support/test-app';

const PROJECTOR_MAIN = 'dist/apps/projector/src/main.js';
/** The info lines (the child's start) are logged at `log`; startGateway defaults to `warn`. */
const INFO_LOGS = { LOG_LEVEL: 'log' };
const MODEL = 'gpt-4o-mini';
/** ModelPrice 0.002 USD a call = 1000 quota units. */
const PER_CALL = 1000;
const READ_YOUR_WRITES_ROUNDS = 10;
/** How long a gateway's end may take to reach its child (it waits on its IPC channel). */
const ORPHAN_EXIT_MS = 5_000;

/** The projector children `gatewayPid` runs: its child processes started from the projector's main.js. */
const projectorChildrenOf = (gatewayPid: number): number[] =>
  childPidsOf(gatewayPid).filter((pid) =>
    commandLineOf(pid).some((arg) => arg.endsWith(PROJECTOR_MAIN)),
  );

type TokenRow = { id: number; name: string; key: string };

async function tokenRows(url: string, session: GatewaySession): Promise<TokenRow[]> {
  const listed = await gatewayApi(url, '/api/token/?p=0&size=100', { method: 'GET', ...session });
  return (Array.isArray(listed.data) ? listed.data : listed.data.items) as TokenRow[];
}

/** Creates a token named `name`, lists at once (no wait, no retry) and expects it there. */
async function createsAndReadsToken(
  url: string,
  session: GatewaySession,
  name: string,
): Promise<void> {
  await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body: { name, unlimited_quota: true },
    ...session,
  });
  expect((await tokenRows(url, session)).map((token) => token.name)).toContain(name);
}

const readyzStatus = async (url: string): Promise<number> => {
  const res = await request(`${url}/readyz`);
  await res.body.dump();
  return res.statusCode;
};

describe('projector child (PROJECTOR=process, the default of a gateway alone on its stores)', () => {
  const gateways: RunningGateway[] = [];
  const childPids = new Set<number>();
  const sockets: Socket[] = [];
  let upstream: MockUpstream;
  let dataDir: string;
  let gateway: RunningGateway;
  let root: GatewaySession;
  const tokenNames: string[] = [];

  const start = async (env: Record<string, string>, dir?: string) => {
    const started = await startGateway({ env: { ...INFO_LOGS, ...env }, dataDir: dir });
    gateways.push(started);
    return started;
  };

  /** The gateway's one projector child, once it runs (remembered for the clean-up). */
  const projectorChildOf = async (gatewayPid: number, not?: number): Promise<number> => {
    const found = () => projectorChildrenOf(gatewayPid).filter((pid) => pid !== not);
    await waitUntil(() => found().length === 1, `a projector child of ${gatewayPid}`, 10_000);
    const pid = found()[0]!;
    childPids.add(pid);
    return pid;
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    dataDir = tempDataDir();
    gateway = await start({}, dataDir);
    root = await gatewayLogin(gateway.url, 'root', '123456');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await Promise.all(gateways.map((running) => running.stop()));
    // A test that failed half-way may leave an orphaned child: never leave one running.
    for (const pid of childPids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await upstream?.close();
  });

  it('runs one child: a process of the gateway started from the projector main.js', async () => {
    const pid = await projectorChildOf(gateway.pid);
    expect(commandLineOf(pid).join(' ')).toContain(PROJECTOR_MAIN);
    await waitUntil(
      () => gateway.output().includes(`Projector process started (pid ${pid})`),
      'the child in the log',
    );
    expect(gateway.output()).toMatch(/Projecting \d+ read models \(caught up in/);
  });

  it('reads its own writes: every list made right after a create shows the new token', async () => {
    for (let round = 1; round <= READ_YOUR_WRITES_ROUNDS; round++) {
      const name = `ryw-${round}`;
      await createsAndReadsToken(gateway.url, root, name);
      tokenNames.push(name);
    }
  });

  it('pushes a change once the read models hold it: a fetch made on the push sees it', async () => {
    const pushes: ChangedEvent[] = [];
    const fetched = new Map<number | string, Promise<{ name: string }>>();
    const socket = openConsoleSocket(gateway.url, root.cookie);
    sockets.push(socket);
    socket.on('changed', (event: ChangedEvent) => {
      pushes.push(event);
      if (event.topic === 'channels' && event.id !== undefined)
        fetched.set(
          event.id,
          gatewayApi(gateway.url, `/api/channel/${event.id}`, { method: 'GET', ...root }).then(
            (res) => res.data as { name: string },
          ),
        );
    });
    await socketConnected(socket);
    // The server puts a socket in its rooms just after 'connect': a first push shows it did.
    for (let attempt = 1; !pushes.some((push) => push.topic === 'tokens'); attempt++) {
      const name = `warm-up-${attempt}`;
      await createsAndReadsToken(gateway.url, root, name);
      tokenNames.push(name);
      await waitUntil(
        () => pushes.some((push) => push.topic === 'tokens'),
        'a first push',
        2_000,
      ).catch((error: Error) => {
        if (attempt >= 3) throw error;
      });
    }

    const created = await gatewayApi(gateway.url, '/api/channel/', {
      method: 'POST',
      body: { type: 1, name: 'pushed-mock', key: 'sk-up', base_url: upstream.url, models: MODEL },
      ...root,
    });
    const channelId = (created.data.ids as number[])[0]!;
    await waitUntil(() => fetched.has(channelId), `the push of channel ${channelId}`);
    expect(await fetched.get(channelId)).toMatchObject({ name: 'pushed-mock' });
  });

  it('bills a relayed call: the user’s used quota and log row show it', async () => {
    await setOption(gateway.url, root, 'ModelPrice', JSON.stringify({ [MODEL]: 0.002 }));
    await setOption(gateway.url, root, 'QuotaForNewUser', String(10 * PER_CALL));
    const password = 'caller-password';
    await gatewayApi(gateway.url, '/api/user/register', {
      method: 'POST',
      body: { username: 'caller', password, password2: password },
    });
    const caller = await gatewayLogin(gateway.url, 'caller', password);
    await createsAndReadsToken(gateway.url, caller, 'relay');
    const key = (await tokenRows(gateway.url, caller)).find((t) => t.name === 'relay')!.key;

    expect(await chatStatus(gateway.url, key, MODEL)).toBe(200);
    const self = async () =>
      (await gatewayApi(gateway.url, '/api/user/self', { method: 'GET', ...caller })).data as {
        used_quota: number;
      };
    const callRows = async () =>
      (await gatewayApi(gateway.url, '/api/log/self/?type=2', { method: 'GET', ...caller })).data
        .items as Array<{ quota: number; model_name: string }>;
    // The receipt reaches the balance and the log row in its own time (billing is eventual).
    await waitUntil(
      async () => (await self()).used_quota === PER_CALL && (await callRows()).length > 0,
      'the call to be billed and logged',
    );
    expect(await callRows()).toEqual([
      expect.objectContaining({ quota: PER_CALL, model_name: MODEL }),
    ]);
    // The child heard of the receipt's commit from the gateway's writer thread, not over IPC:
    // the writer rewrites the signal's byte, and the child holds a change watch (inotify).
    expect(statSync(join(dataDir, 'events.sqlite.commits')).size).toBe(1);
    const child = await projectorChildOf(gateway.pid);
    const fds = readdirSync(`/proc/${child}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${child}/fd/${fd}`);
      } catch {
        return ''; // closed meanwhile
      }
    });
    expect(fds).toContain('anon_inode:inotify');
  });

  it('restarts a child killed with SIGKILL; the gateway stays ready and reads its writes', async () => {
    const killed = await projectorChildOf(gateway.pid);
    process.kill(killed, 'SIGKILL');
    await waitUntil(
      () =>
        gateway
          .output()
          .includes(
            `The projector process (pid ${killed}) ended by SIGKILL: restarting it in 1000 ms`,
          ),
      'the restart line',
    );
    const restarted = await projectorChildOf(gateway.pid, killed);
    // The line is written asynchronously (pino): it may follow the process by a moment.
    await waitUntil(
      () => gateway.output().includes(`Projector process started (pid ${restarted})`),
      'the new child in the log',
    );
    await waitUntil(async () => (await readyzStatus(gateway.url)) === 200, '/readyz 200', 10_000);
    await createsAndReadsToken(gateway.url, root, 'after-restart');
    tokenNames.push('after-restart');
  });

  it('PROJECTOR=inline: no child; the gateway projects itself and reads its writes', async () => {
    const inline = await start({ PROJECTOR: 'inline' });
    const session = await gatewayLogin(inline.url, 'root', '123456');
    await createsAndReadsToken(inline.url, session, 'inline');
    expect(projectorChildrenOf(inline.pid)).toEqual([]);
    expect(inline.output()).not.toContain('Projector process started');
    await inline.stop();
  });

  it('a gateway killed with SIGKILL: its child exits by itself; the next gateway has the data', async () => {
    const orphan = await projectorChildOf(gateway.pid);
    process.kill(gateway.pid, 'SIGKILL');
    expect(await gateway.exited).toBeNull();
    await waitUntil(() => !isRunning(orphan), 'the orphaned child to exit', ORPHAN_EXIT_MS);
    await waitUntil(
      () => gateway.output().includes('the gateway stopped: stopping'),
      "the child's last line",
    );

    gateway = await start({}, dataDir);
    const child = await projectorChildOf(gateway.pid);
    expect(child).not.toBe(orphan);
    root = await gatewayLogin(gateway.url, 'root', '123456');
    const names = (await tokenRows(gateway.url, root)).map((token) => token.name);
    expect(names).toEqual(expect.arrayContaining(tokenNames));
  });

  it('a gateway stopped with SIGTERM exits 0 and its child with it', async () => {
    const child = await projectorChildOf(gateway.pid);
    await gateway.stop();
    expect(await gateway.exited).toBe(0);
    await waitUntil(() => !isRunning(child), 'the child to exit', ORPHAN_EXIT_MS);
    // Reaped by the gateway before it exited: the pid is gone, not a zombie.
    expect(() => process.kill(child, 0)).toThrow();
  });
});
