import WebSocket from 'ws';
import { waitUntil, withTimeout } from '../support/waiting';
import { rssMiBOf, sleep } from './bench-processes';

/**
 * A process's memory right after full collections: what it keeps, without the garbage its old
 * generations hold until the next one. A sample of RSS under load lands anywhere on that sawtooth
 * (the projector child's swung between ~90 and ~134 MiB from one minute to the next while its live
 * heap stayed at ~10 MiB), so the soak compares these instead.
 */
export interface AfterFullCollections {
  /** The live objects of the process's JavaScript heaps, its main thread's and its workers', MiB. */
  readonly heapMiB: number;
  /** The worker threads whose heaps were collected too (the event store's writer, read workers). */
  readonly workers: number;
  /** The process's resident pages, MiB: the heaps', and what native code keeps (SQLite's caches). */
  readonly rssMiB: number;
}

/** Collections asked for in a row: the second frees what the first's finalizers let go. */
const COLLECTIONS = 2;
const CONNECT_MS = 10_000;
/** A call without an answer by then fails (a worker that ended after the call was sent). */
const CALL_MS = 30_000;
/** How long the workers already running take to be announced once worker sessions are enabled. */
const WORKERS_ANNOUNCED_MS = 200;

/**
 * Opens `pid`'s inspector with SIGUSR1 (on the port the process was started with:
 * `--inspect-port`), asks V8 for full collections in every thread's heap over the DevTools
 * protocol (each worker thread has a heap of its own), and reads the live heaps and the RSS. The
 * inspector stays open afterwards; the caller measures at the end of the process's useful life or
 * accepts its idle listener.
 */
export async function afterFullCollections(
  pid: number,
  inspectPort: number,
): Promise<AfterFullCollections> {
  process.kill(pid, 'SIGUSR1');
  const session = await DevtoolsSession.open(await debuggerUrl(inspectPort));
  try {
    await session.call(MAIN, 'NodeWorker.enable', { waitForDebuggerOnStart: false });
    await sleep(WORKERS_ANNOUNCED_MS);
    const threads = [MAIN, ...session.workers];
    let used = 0;
    let workers = 0;
    for (const thread of threads) {
      try {
        for (let i = 0; i < COLLECTIONS; i++)
          await session.call(thread, 'HeapProfiler.collectGarbage');
        const usage = (await session.call(thread, 'Runtime.getHeapUsage')) as { usedSize: number };
        used += usage.usedSize;
        if (thread !== MAIN) workers += 1;
      } catch (error) {
        // A read worker may end on its idle timeout meanwhile: its heap has gone with it.
        if (thread === MAIN) throw error;
      }
    }
    return { heapMiB: used / 2 ** 20, workers, rssMiB: rssMiBOf(pid) };
  } finally {
    session.close();
  }
}

/** The first target's WebSocket address, once the freshly signalled inspector listens. */
async function debuggerUrl(port: number): Promise<string> {
  let url: string | undefined;
  await waitUntil(
    async () => {
      try {
        const list = await fetch(`http://127.0.0.1:${port}/json/list`);
        url = ((await list.json()) as Array<{ webSocketDebuggerUrl?: string }>)[0]
          ?.webSocketDebuggerUrl;
      } catch {
        // Not listening yet: SIGUSR1 starts the inspector on the process's own loop.
      }
      return url !== undefined;
    },
    `an inspector on port ${port}`,
    CONNECT_MS,
  );
  return url!;
}

/** The main thread; a worker thread is named by its session's id. */
const MAIN = '';

/**
 * The few DevTools protocol calls above: a request, its answer matched by id. A worker thread's
 * calls go through the main thread's session (`NodeWorker.sendMessageToWorker`), its answers come
 * back as events; ids are unique across all of them, so one map matches both.
 */
class DevtoolsSession {
  /** The session ids of the worker threads announced so far. */
  readonly workers: string[] = [];
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (error: Error) => void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.receive(JSON.parse(data.toString()) as Message));
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

  call(thread: string, method: string, params: object = {}): Promise<unknown> {
    const id = ++this.next;
    const message = JSON.stringify({ id, method, params });
    const answer = new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (thread === MAIN) return this.socket.send(message);
      // The wrapper's own answer only matters when it fails (the worker has ended).
      const wrapper = ++this.next;
      this.waiting.set(wrapper, { resolve: () => undefined, reject });
      this.socket.send(
        JSON.stringify({
          id: wrapper,
          method: 'NodeWorker.sendMessageToWorker',
          params: { sessionId: thread, message },
        }),
      );
    });
    return withTimeout(answer, method, CALL_MS);
  }

  close(): void {
    this.socket.close();
  }

  private receive(message: Message): void {
    const sessionId = message.params?.sessionId;
    if (message.method === 'NodeWorker.attachedToWorker' && sessionId) this.workers.push(sessionId);
    if (message.method === 'NodeWorker.receivedMessageFromWorker' && message.params?.message)
      return this.receive(JSON.parse(message.params.message) as Message);
    if (message.id === undefined) return;
    const waiting = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (message.error) waiting?.reject(new Error(`${message.error.message}`));
    else waiting?.resolve(message.result);
  }
}

/** A DevTools protocol message: an answer (id), or an event (method, params). */
interface Message {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
  readonly method?: string;
  readonly params?: { readonly sessionId?: string; readonly message?: string };
}
