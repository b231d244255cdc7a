import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { Position } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../../config/app-config';
import { clearProjectorHead } from '../projector-head';
import {
  APPENDED_MESSAGE,
  headOfMessage,
  isReadyMessage,
  PROJECTOR_PARENT_ENV,
} from './projector-child-protocol';
import { projectorNodeFlags } from './projector-node-flags';

/** The first restart waits this long, each next one twice as long, up to MAX_RESTART_MS. */
const FIRST_RESTART_MS = 1_000;
const MAX_RESTART_MS = 30_000;
/** A child that ran this long before dying starts the back-off over. */
const HEALTHY_RUN_MS = 60_000;
/** How long a start waits for its projector child to catch up (as scale-out followers wait). */
const READY_MS = 60_000;
/** How long `stop` waits for the child to finish its batch before killing it. */
const STOP_GRACE_MS = 10_000;

export interface ProjectorChildOptions {
  /** The projector's entry (dist/apps/projector/src/main.js). */
  readonly script: string;
  readonly log: (line: string) => void;
  readonly error: (line: string) => void;
  /** Test seam: the first restart delay (ms). */
  readonly firstRestartMs?: number;
}

/**
 * The gateway's projector child: the read models written by a process of their own, so the relay's
 * event loop does only relay work. Started once the gateway holds DATA_DIR, restarted with a
 * growing delay if it dies, stopped with the gateway (and by itself when the gateway's IPC channel
 * closes, even after a kill -9). Its head positions come over that channel, so read-your-writes and
 * the console's pushes wait for no poll.
 */
export class ProjectorChild {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restartMs: number;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly headListeners = new Set<(position: Position) => void>();
  private readonly readyWaiters = new Set<() => void>();
  private starts = 0;
  private telling = false;

  constructor(private readonly options: ProjectorChildOptions) {
    this.restartMs = options.firstRestartMs ?? FIRST_RESTART_MS;
  }

  /** The running child's pid (null between a death and its restart). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How many times a child was started (1 + restarts). */
  get startCount(): number {
    return this.starts;
  }

  start(): void {
    if (this.stopping || this.child) return;
    this.starts += 1;
    const startedAt = Date.now();
    const child = fork(this.options.script, [], {
      env: { ...process.env, [PROJECTOR_PARENT_ENV]: String(process.pid) },
      // The gateway's own node flags (a profile, an inspector port) are not the projector's.
      execArgv: projectorNodeFlags(process.env.NODE_OPTIONS),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group: a terminal's Ctrl-C reaches the gateway, which drains, then stops
      // the child; a child stopped first would be restarted in the middle of the drain.
      detached: true,
    });
    this.child = child;
    child.on('message', (message) => {
      if (isReadyMessage(message)) for (const ready of [...this.readyWaiters]) ready();
      const head = headOfMessage(message);
      if (head) for (const listener of [...this.headListeners]) listener(head);
    });
    child.on('error', (error) => this.options.error(`Projector process: ${error.message}`));
    child.once('exit', (code, signal) => {
      this.child = null;
      if (this.stopping) return;
      if (Date.now() - startedAt >= HEALTHY_RUN_MS)
        this.restartMs = this.options.firstRestartMs ?? FIRST_RESTART_MS;
      const how = signal ? `by ${signal}` : `with code ${code}`;
      this.options.error(
        `The projector process (pid ${child.pid}) ended ${how}: restarting it in ${this.restartMs} ms`,
      );
      this.restartTimer = setTimeout(() => this.start(), this.restartMs);
      this.restartMs = Math.min(this.restartMs * 2, MAX_RESTART_MS);
    });
    this.options.log(`Projector process started (pid ${child.pid})`);
  }

  /**
   * True once a child has declared its read models and caught up (the gateway must not read them
   * before: a first start or a version bump creates or drops their tables); false after `timeoutMs`.
   */
  ready(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        this.readyWaiters.delete(done);
        resolve(result);
      };
      const done = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.readyWaiters.add(done);
    });
  }

  /**
   * Tells the child this process appended a command's events, which the child applies without
   * pacing (read-your-writes waits for them): it looks now, not when the writer thread's commit
   * signal's 10 ms spacing lets it. Commits of receipts alone are not told: the signal wakes the
   * child, with nothing on this loop. At most one message in flight: the child reads every commit
   * up to the head when it looks, so a commit made while one is in flight is read with it (or, in
   * the rare case it lands just after that look, at the signal or the child's 20 ms look).
   */
  nudge(): void {
    const child = this.child;
    if (this.telling || !child?.connected) return;
    this.telling = true;
    child.send(APPENDED_MESSAGE, () => (this.telling = false));
  }

  /** `listener` gets every head position the child reports. */
  onHead(listener: (position: Position) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  /** Stops the child (SIGTERM, then SIGKILL after a grace) and restarts it no more. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }
}

type ChildConfig = Pick<AppConfig, 'projector' | 'scaleOut' | 'projections'>;

/**
 * Whether `config` gives the gateway a projector child: alone on its stores with PROJECTOR left at
 * `process` and PROJECTIONS at `auto`; not in scale-out (docs/scale-out.md has its own projector),
 * with PROJECTIONS=on/off, or PROJECTOR=inline.
 */
export const usesProjectorChild = (config: ChildConfig): boolean =>
  config.projector === 'process' && !config.scaleOut && config.projections === 'auto';

/** The projector child main.js starts for `config`; null when it has none. */
export function projectorChildFor(config: ChildConfig): ProjectorChild | null {
  if (!usesProjectorChild(config)) return null;
  const logger = new Logger('Projector');
  return new ProjectorChild({
    // dist/apps/gateway/src/infrastructure/projector-child → dist/apps/projector/src/main.js
    script: join(__dirname, '../../../../projector/src/main.js'),
    log: (line) => logger.log(line),
    error: (line) => logger.error(line),
  });
}

/**
 * Starts the child once the gateway holds DATA_DIR (and restored a lost read store), and waits
 * until it is ready: the app reads the read models from `listen` on, not before the child has
 * created them (a first start) or rebuilt one whose version changed.
 */
export async function launchProjectorChild(
  projector: ProjectorChild,
  readStore: ReadStore,
): Promise<void> {
  // A head the last child left may be older than its read models after a version bump: the
  // gateway waits for the new child's own, as scale-out followers do (docs/scale-out.md).
  await clearProjectorHead(readStore);
  projector.start();
  if (!(await projector.ready(READY_MS)))
    new Logger('Projector').warn(
      `The projector process was not ready within ${READY_MS} ms: starting without it`,
    );
}
