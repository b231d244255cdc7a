import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type { Projection, ProjectionHost } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { MeteredEventStore } from './metered-event-store';
import { projectionMode } from '../config/projection-mode';
import { createProjections, startElection } from './create-projections';
import { StreamCommands } from './stream-commands';
import { CacheFeed } from './hot-caches/cache-feed';
import { PendingWrites } from './pending-writes';
import { APP_CONFIG } from '../config/config.tokens';
import { EVENT_STORE, PROJECTION_HOST, PROJECTIONS, READ_STORE, STORES } from './injection-tokens';
import { PasswordHasher } from './password-hasher';
import { LockElection } from './lock-election';
import { ReadYourWrites } from './read-your-writes';
import { SchedulerGate } from './scheduler-gate';
import { SecretBox } from './secret-box';
import type { Stores } from './open-stores';

const SERVICES: Provider[] = [
  // Scale-out with PROJECTIONS=auto only (else null): whether this process writes the read models.
  // Never taken by a process that will not project, or it would hold apps/projector off.
  {
    provide: LockElection,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) =>
      projectionMode(config) === 'elect' ? startElection(config, 'projector') : null,
  },
  {
    provide: PROJECTION_HOST,
    inject: [EVENT_STORE, READ_STORE, APP_CONFIG, CacheFeed, LockElection, PROJECTIONS],
    useFactory: createProjections,
  },
  {
    provide: SchedulerGate,
    inject: [APP_CONFIG],
    // Its own lock: a separate projector process (apps/projector) holds projector.lock.
    useFactory: (config: AppConfig) => new SchedulerGate(startElection(config, 'scheduler')),
  },
  {
    provide: SecretBox,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => new SecretBox(config.sessionSecret),
  },
  // One pool per app: its workers stop with the app.
  {
    provide: PasswordHasher,
    useFactory: () => {
      const hasher = new PasswordHasher();
      hasher.prepare();
      return hasher;
    },
  },
  StreamCommands,
  ReadYourWrites,
  CacheFeed,
  PendingWrites,
];

/** The two ports, the projections over them, and the services every command handler uses. */
@Global()
@Module({})
export class StorageModule implements OnApplicationShutdown {
  /** `projections`: the read models to project (the composition root's registry). */
  static forStores(stores: Stores, projections: readonly Projection[]): DynamicModule {
    // The app appends through the metered port (append counts and times for /metrics).
    const eventStore = new MeteredEventStore(stores.eventStore);
    return {
      module: StorageModule,
      providers: [
        { provide: EVENT_STORE, useValue: eventStore },
        { provide: MeteredEventStore, useValue: eventStore },
        { provide: READ_STORE, useValue: stores.readStore },
        { provide: STORES, useValue: stores },
        { provide: PROJECTIONS, useValue: projections },
        ...SERVICES,
      ],
      exports: [
        EVENT_STORE,
        MeteredEventStore,
        READ_STORE,
        PROJECTION_HOST,
        SecretBox,
        PasswordHasher,
        StreamCommands,
        ReadYourWrites,
        CacheFeed,
        PendingWrites,
        SchedulerGate,
      ],
    };
  }

  constructor(
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    @Inject(STORES) private readonly stores: Stores,
    private readonly hasher: PasswordHasher,
    private readonly pending: PendingWrites,
    @Inject(LockElection) private readonly election: LockElection | null,
    private readonly scheduler: SchedulerGate,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The last batched receipts (requests answered during the drain) land before the stores close.
    await this.pending.drain();
    await this.hasher.close();
    await this.host.stop();
    // Another scale-out process may take over the projections and the scheduled jobs now.
    this.election?.release();
    this.scheduler.release();
    await this.stores.close();
  }
}
