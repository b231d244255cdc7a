import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { EventStore, Position } from '@tollgate/event-store';
import { CHECKPOINTS, type ProjectionHost, type ReadStore } from '@tollgate/read-store';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { EVENT_STORE, PROJECTION_HOST, READ_STORE } from '../infrastructure/injection-tokens';

/** A storage call that takes longer than this counts as not answering. */
const STORAGE_TIMEOUT_MS = 1000;

export interface ReadinessCheck {
  readonly ok: boolean;
  readonly detail?: string;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<
    Record<'storage' | 'projections' | 'caches' | 'shutdown', ReadinessCheck>
  >;
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref(),
    ),
  ]);

/**
 * What a load balancer asks before sending traffic (GET /readyz): both stores answer, the read
 * models and the hot caches have caught up with the log head seen when the process started, and
 * the process is not shutting down (a SIGTERM turns it 503 at once, before the listener closes).
 */
@Injectable()
export class ReadinessProbe implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private startHead: Position | null | undefined;
  private shuttingDown = false;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    private readonly caches: CacheFeed,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.startHead ??= await this.eventStore.headPosition();
  }

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
  }

  /** A shutdown signal arrived: not ready from now on (before any module closes). */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<Readiness> {
    const storage = await this.storage();
    const head = this.startHead;
    const caughtUp = (reached: (p: Position) => boolean): ReadinessCheck =>
      head === undefined
        ? { ok: false, detail: 'starting' }
        : head === null || reached(head)
          ? { ok: true }
          : { ok: false, detail: `behind the start-up head ${String(head.commit)}` };
    const checks = {
      storage,
      projections: caughtUp((p) => this.host.hasReached(p)),
      caches: caughtUp((p) => this.caches.hasReached(p)),
      shutdown: this.shuttingDown ? { ok: false, detail: 'shutting down' } : { ok: true },
    };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  private async storage(): Promise<ReadinessCheck> {
    try {
      await within(
        Promise.all([
          this.eventStore.headPosition(),
          this.readStore.collection(CHECKPOINTS).get('readiness'),
        ]),
        STORAGE_TIMEOUT_MS,
      );
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
