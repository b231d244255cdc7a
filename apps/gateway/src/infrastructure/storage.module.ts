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
import {
  EVENT_STORE,
  LEASES,
  PROJECTION_HOST,
  PROJECTIONS,
  PROJECTOR_CHILD,
  PROJECTOR_ELECTION,
  READ_STORE,
  STORES,
} from './injection-tokens';
import { PasswordHasher } from './password-hasher';
import type { Election } from './election/election';
import { openLeases, type Leases } from './election/open-leases';
import type { EventStore } from '@tollgate/event-store';
import { ReadYourWrites } from './read-your-writes';
import { SchedulerGate } from './scheduler-gate';
import { SecretBox } from './secret-box';
import type { Stores } from './open-stores';
import type { ProjectorChild } from './projector-child/projector-child';

const SERVICES: Provider[] = [
  // Scale-out on shared engines only: alone, or on embedded stores, no lease traffic at all.
  {
    provide: LEASES,
    inject: [APP_CONFIG, EVENT_STORE],
    useFactory: (config: AppConfig, eventStore: EventStore) =>
      config.scaleOut ? openLeases(config, eventStore) : null,
  },
  // Scale-out with PROJECTIONS=auto only (else null): whether this process writes the read models.
  // Never taken by a process that will not project, or it would hold apps/projector off.
  {
    provide: PROJECTOR_ELECTION,
    inject: [APP_CONFIG, LEASES],
    useFactory: (config: AppConfig, leases: Leases | null) =>
      projectionMode(config) === 'elect'
        ? startElection(config, 'projector', leases?.port ?? null)
        : null,
  },
  {
    provide: PROJECTION_HOST,
    inject: [
      EVENT_STORE,
      READ_STORE,
      APP_CONFIG,
      CacheFeed,
      PROJECTOR_ELECTION,
      PROJECTIONS,
      PROJECTOR_CHILD,
    ],
    useFactory: createProjections,
  },
  {
    provide: SchedulerGate,
    inject: [APP_CONFIG, LEASES],
    // Its own election: a separate projector process (apps/projector) holds the projector's.
    useFactory: (config: AppConfig, leases: Leases | null) =>
      new SchedulerGate(startElection(config, 'scheduler', leases?.port ?? null)),
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
  static forStores(
    stores: Stores,
    projections: readonly Projection[],
    projector: ProjectorChild | null = null,
  ): DynamicModule {
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
        { provide: PROJECTOR_CHILD, useValue: projector },
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
    @Inject(PROJECTOR_ELECTION) private readonly election: Election | null,
    private readonly scheduler: SchedulerGate,
    @Inject(LEASES) private readonly leases: Leases | null,
    @Inject(PROJECTOR_CHILD) private readonly projector: ProjectorChild | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The last batched receipts (requests answered during the drain) land before the stores close.
    await this.pending.drain();
    await this.hasher.close();
    await this.host.stop();
    await this.projector?.stop();
    // Another scale-out process may take over the projections and the scheduled jobs now.
    await this.election?.release();
    await this.scheduler.release();
    await this.leases?.close();
    await this.stores.close();
  }
}
