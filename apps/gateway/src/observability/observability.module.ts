import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { RequestLog } from './request-log';
import { APP_LOG, REQUEST_TRACKER } from './observability.tokens';
import type { RequestTracker } from './request-tracker';

/**
 * Made before Nest (the tracker instruments the Fastify instances as routes are added) and handed
 * in: global, so metrics and the relay reach the same tracker.
 */
export interface Observability {
  readonly tracker: RequestTracker;
  readonly log: Pino;
}

@Global()
@Module({})
export class ObservabilityModule {
  static forRoot({ tracker, log }: Observability): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: REQUEST_TRACKER, useValue: tracker },
        { provide: APP_LOG, useValue: log },
        RequestLog,
      ],
      exports: [REQUEST_TRACKER, APP_LOG],
    };
  }
}
