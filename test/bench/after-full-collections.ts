import WebSocket from 'ws';
import { rssMiBOf, sleep } from './bench-processes';

/**
 * A process's memory right after full collections: what it keeps, without the garbage its old
 * generation holds until the next one. A sample of RSS under load lands anywhere on that sawtooth
 * (the projector child's swung between ~90 and ~134 MiB from one minute to the next while its live
 * heap stayed at ~10 MiB), so the soak compares these instead.
 */
export interface AfterFullCollections {
  /** The JavaScript heap's live objects, MiB. */
  readonly heapMiB: number;
  /** The process's resident pages, MiB: the heap's, and what native code keeps (SQLite's caches). */
  readonly rssMiB: number;
}

/** Collections asked for in a row: the second frees what the first's finalizers let go. */
const COLLECTIONS = 2;
const CONNECT_MS = 10_000;

/**
 * Opens `pid`'s inspector with SIGUSR1 (on the port the process was started with:
 * `--inspect-port`), asks V8 for full collections over the DevTools protocol, and reads the live
 * heap and the RSS. The inspector stays open afterwards; the caller measures at the end of the
 * process's useful life or accepts its idle listener.
 */
export async function afterFullCollections(
  pid: number,
  inspectPort: number,
): Promise<AfterFullCollections> {
  process.kill(pid, 'SIGUSR1');
  const session = await DevtoolsSession.open(await debuggerUrl(inspectPort));
  try {
    for (let i = 0; i < COLLECTIONS; i++) await session.call('HeapProfiler.collectGarbage');
    const usage = (await session.call('Runtime.getHeapUsage')) as { usedSize: number };
    return { heapMiB: usage.usedSize / 2 ** 20, rssMiB: rssMiBOf(pid) };
  } finally {
    session.close();
  }
}

/** The first target's WebSocket address, once the freshly signalled inspector listens. */
async function debuggerUrl(port: number): Promise<string> {
  const deadline = Date.now() + CONNECT_MS;
  for (;;) {
    try {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
        webSocketDebuggerUrl?: string;
      }>;
      const url = targets[0]?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // Not listening yet: SIGUSR1 starts the inspector on the process's own loop.
    }
    if (Date.now() > deadline) throw new Error(`no inspector on port ${port}`);
    await sleep(100);
  }
}

/** The few DevTools protocol calls above: a request, its answer matched by id. */
class DevtoolsSession {
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (error: Error) => void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id === undefined) return;
      this.waiting.get(message.id)?.resolve(message.result);
      this.waiting.delete(message.id);
    });
    socket.on('close', () => {
      for (const { reject } of this.waiting.values()) reject(new Error('the inspector closed'));
      this.waiting.clear();
    });
  }

  static open(url: string): Promise<DevtoolsSession> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new DevtoolsSession(socket)));
      socket.once('error', reject);
    });
  }

  call(method: string): Promise<unknown> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
