import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { METRICS_REGISTRY } from './metrics-registry';
import { scrapeAllowed } from './scrape-auth';

/** GET /metrics: the Prometheus text exposition, outside /api (no session, no envelope). */
@Controller()
export class MetricsController {
  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    void reply.header('cache-control', 'no-store');
    if (!scrapeAllowed(this.config.metricsToken, authorization)) {
      void reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8');
      return 'Unauthorized\n';
    }
    void reply.type(this.registry.contentType);
    return this.registry.metrics();
  }
}
