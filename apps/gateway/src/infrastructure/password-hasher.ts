import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../shared/api-error';

/** argon2id (OWASP's second profile: 19 MiB, t=2, p=1), in WebAssembly: no native build. */
const PROFILE = { parallelism: 1, iterations: 2, hashLength: 32 } as const;

/**
 * The worker's whole program, evaluated as CommonJS (so it runs the same from the TypeScript
 * sources under jest and from dist). hash-wasm is resolved here, in the parent, by absolute path.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { argon2id, argon2Verify, bcryptVerify } = require(${JSON.stringify(require.resolve('hash-wasm'))});
parentPort.on('message', async (job) => {
  try {
    const result = job.op === 'hash'
      ? await argon2id({ ...job.params, password: job.password, salt: Buffer.from(job.salt, 'base64'), outputType: 'encoded' })
      : job.hash.startsWith('$2')
        ? await bcryptVerify({ password: job.password, hash: job.hash }).catch(() => false)
        : await argon2Verify({ password: job.password, hash: job.hash }).catch(() => false);
    parentPort.postMessage({ id: job.id, result });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error && error.message || error) });
  }
});
`;

type Job =
  | { id: number; op: 'hash'; password: string; salt: string; params: object }
  | { id: number; op: 'verify'; password: string; hash: string };

interface Pending {
  readonly job: Job;
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

/** bcrypt as one-api / new-api store it (`$2a$`, `$2b$`, `$2y$`): verified, then replaced. */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** An imported bcrypt hash: it verifies, and the next successful sign-in re-hashes it. */
export function isLegacyPasswordHash(hash: string): boolean {
  return BCRYPT.test(hash);
}

/** Raised when more password checks wait than the pool will queue: the caller answers "busy". */
export class PasswordQueueFullError extends ApiError {
  constructor() {
    // Answered like any busy system: retry later (HTTP 200, success false).
    super('common.busy');
    this.message = 'password hashing queue is full';
  }
}

/**
 * Password hashing in a small pool of worker threads: an argon2 run takes tens of milliseconds
 * of CPU, and on the main thread forty parallel logins stalled every other request for a second.
 * Jobs queue (bounded) until a worker is free; workers are started on first use and unref'd, and
 * stopped after `idleMs` without work: each holds its own V8 heap and the argon2 WebAssembly memory
 * (which never shrinks), about 30 MiB of a gateway that signs someone in now and then.
 */
export class PasswordHasher {
  private readonly idle: Worker[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private started = 0;
  private nextId = 1;
  private dummy: Promise<string> | null = null;
  private closed = false;

  constructor(
    private readonly memorySize = 19456,
    private readonly poolSize = Math.max(1, Math.min(4, availableParallelism() - 1)),
    private readonly maxQueue = 256,
    private readonly idleMs = 30_000,
  ) {}

  hash(password: string): Promise<string> {
    return this.run({
      id: this.nextId++,
      op: 'hash',
      password,
      salt: randomBytes(16).toString('base64'),
      params: { ...PROFILE, memorySize: this.memorySize },
    }) as Promise<string>;
  }

  verify(password: string, hash: string): Promise<boolean> {
    if (!hash.startsWith('$argon2') && !isLegacyPasswordHash(hash)) return Promise.resolve(false);
    return this.run({ id: this.nextId++, op: 'verify', password, hash }) as Promise<boolean>;
  }

  /**
   * Spends the same work as checking a real password, against a hash no password matches: login
   * for an unknown user takes as long as for a known one.
   */
  async verifyNothing(password: string): Promise<false> {
    await this.verify(password, await this.dummyHash());
    return false;
  }

  /** Computes the dummy hash ahead of the first unknown login, which would otherwise pay twice. */
  prepare(): void {
    this.dummyHash().catch(() => undefined);
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(24).toString('base64'));
    return this.dummy;
  }

  /** Stops the workers; pending jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('password hasher closed'));
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private run(job: Job): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('password hasher closed'));
    if (this.queue.length >= this.maxQueue) return Promise.reject(new PasswordQueueFullError());
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? this.spawn();
      if (!worker) return;
      clearTimeout(this.idleTimers.get(worker));
      this.idleTimers.delete(worker);
      const pending = this.queue.shift()!;
      this.busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  private spawn(): Worker | null {
    if (this.started >= this.poolSize) return null;
    this.started += 1;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (message: { id: number; result?: string | boolean; error?: string }) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      if (!this.closed) this.rest(worker);
      if (pending) {
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.result!);
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.retire(worker, error));
    worker.on('exit', () => this.retire(worker, new Error('password worker exited')));
    return worker;
  }

  /** Back in the idle list; stopped if nothing needs it for idleMs (out of the pool first, so no job reaches it). */
  private rest(worker: Worker): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at < 0) return;
      this.idle.splice(at, 1);
      this.started -= 1;
      void worker.terminate();
    }, this.idleMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /** A worker that died fails its job; a new one is started for the rest of the queue. */
  private retire(worker: Worker, error: Error): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.started > 0 && (pending || at >= 0)) this.started -= 1;
    pending?.reject(error);
    if (!this.closed) this.dispatch();
  }
}
