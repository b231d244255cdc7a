import {
  type DynamicModule,
  Global,
  Inject,
  Logger,
  Module,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { MeteredEventStore } from '../metrics/metered-event-store';
import { ALL_PROJECTIONS } from '../projections/all-projections';
import { StreamCommands } from './stream-commands';
import { CacheFeed } from './hot-caches/cache-feed';
import { PendingWrites } from './pending-writes';
import { APP_CONFIG, EVENT_STORE, PROJECTION_HOST, READ_STORE, STORES } from './injection-tokens';
import { PasswordHasher } from './password-hasher';
import { ReadYourWrites } from './read-your-writes';
import { SecretBox } from './secret-box';
import type { Stores } from './open-stores';

const SERVICES: Provider[] = [
  {
    provide: PROJECTION_HOST,
    inject: [EVENT_STORE, READ_STORE, APP_CONFIG],
    useFactory: (eventStore: EventStore, readStore: ReadStore, config: AppConfig) => {
      const logger = new Logger('Projections');
      return new ProjectionHost(eventStore, readStore, ALL_PROJECTIONS, {
        onError: (name, error) => logger.error(`${name}: ${error.stack ?? error.message}`),
        livePacingMs: config.projectionPacingMs,
      });
    },
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
  static forStores(stores: Stores): DynamicModule {
    // The app appends through the metered port (append counts and times for /metrics).
    const eventStore = new MeteredEventStore(stores.eventStore);
    return {
      module: StorageModule,
      providers: [
        { provide: EVENT_STORE, useValue: eventStore },
        { provide: MeteredEventStore, useValue: eventStore },
        { provide: READ_STORE, useValue: stores.readStore },
        { provide: STORES, useValue: stores },
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
      ],
    };
  }

  constructor(
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    @Inject(STORES) private readonly stores: Stores,
    private readonly hasher: PasswordHasher,
    private readonly pending: PendingWrites,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The last batched receipts (requests answered during the drain) land before the stores close.
    await this.pending.drain();
    await this.hasher.close();
    await this.host.stop();
    await this.stores.close();
  }
}
