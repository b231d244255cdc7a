import { withFields } from '@tollgate/domain';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { APP_LOG, REQUEST_TRACKER } from './observability.tokens';
import type { RequestObserver, RequestRecord } from './request-record';
import type { RequestTracker } from './request-tracker';

/**
 * One `info` line per request: ids, route template, status and duration, and for relay calls the
 * token, model, channel and retries. Nothing from headers or bodies is read here, so no key,
 * cookie, password or prompt can reach the log through it.
 */
@Injectable()
export class RequestLog implements RequestObserver, OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(APP_LOG) private readonly log: Pino,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
  ) {}

  onModuleInit(): void {
    if (this.log.isLevelEnabled('info')) this.tracker.observe(this);
  }

  /** The lines still buffered reach stdout before the process exits. */
  onApplicationShutdown(): Promise<void> {
    return new Promise((resolve) => this.log.flush(() => resolve()));
  }

  requestDone(r: RequestRecord): void {
    const line = {
      requestId: r.requestId,
      method: r.method,
      route: r.route,
      status: r.status,
      durationMs: Math.round(r.durationMs * 100) / 100,
      userId: r.userId,
      // The client chose the request id: the id the gateway's errors and receipts carry.
      ...(r.ownId !== r.requestId ? { gatewayId: r.ownId } : {}),
    };
    const relay = r.relay;
    if (!relay) return this.log.info(line, 'request');
    this.log.info(
      withFields(line, {
        tokenId: relay.tokenId,
        model: relay.model,
        channelId: relay.channelId,
        retries: relay.retries,
        ...(relay.quota > 0 ? { quota: relay.quota } : {}),
      }),
      'request',
    );
  }
}
