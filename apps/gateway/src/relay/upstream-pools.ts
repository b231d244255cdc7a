import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'undici';

/** Timeouts of an upstream call. Long: models think slowly; the SSE body timeout is per chunk. */
export const UPSTREAM_HEADERS_TIMEOUT_MS = 300_000;
export const UPSTREAM_BODY_TIMEOUT_MS = 300_000;

/**
 * One keep-alive undici Pool per upstream origin (never fetch: several times slower). Pools are
 * created on first use and live for the process; a channel's origin rarely changes.
 */
@Injectable()
export class UpstreamPools implements OnApplicationShutdown {
  private readonly pools = new Map<string, Pool>();

  pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: 256,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        headersTimeout: UPSTREAM_HEADERS_TIMEOUT_MS,
        bodyTimeout: UPSTREAM_BODY_TIMEOUT_MS,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async onApplicationShutdown(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(pools.map((p) => p.destroy()));
  }
}
