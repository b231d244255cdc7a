import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { ProjectionHost } from '@tollgate/read-store';
import type { Registry } from 'prom-client';
import { ChannelsModule } from '../channels/channels.module';
import { RoutingTable } from '../channels/routing-table';
import { PROJECTION_HOST } from '../infrastructure/injection-tokens';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import type { RequestTracker } from '../observability/request-tracker';
import { registerChannelMetrics } from './channel-metrics';
import { EventMetrics } from './event-metrics';
import { MeteredEventStore } from '../infrastructure/metered-event-store';
import { createMetricsRegistry, METRICS_REGISTRY } from './metrics-registry';
import { MetricsController } from './metrics.controller';
import { ModelLabels } from './model-label';
import { registerProjectionMetrics } from './projection-metrics';
import { RequestMetrics } from './request-metrics';
import { registerRetentionMetrics } from './retention-metrics';
import { RetentionModule } from '../retention/retention.module';
import { RetentionService } from '../retention/retention.service';
import { UsageAppender } from '../usage/usage-appender';
import { UsageMetrics } from './usage-metrics';

/**
 * Prometheus metrics at GET /metrics (docs/operations.md, "Metrics"): requests from the request
 * tracker, appends from the metered event store, receipts' durability from the usage appender,
 * channels and projections read when scraped.
 */
@Module({
  imports: [ChannelsModule, RetentionModule],
  controllers: [MetricsController],
  providers: [{ provide: METRICS_REGISTRY, useFactory: createMetricsRegistry }],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    @Inject(PROJECTION_HOST) private readonly projections: ProjectionHost,
    private readonly routing: RoutingTable,
    private readonly eventStore: MeteredEventStore,
    private readonly retention: RetentionService,
    private readonly usage: UsageAppender,
  ) {}

  onModuleInit(): void {
    const requests = new RequestMetrics(this.registry, new ModelLabels(this.routing));
    this.tracker.observe(requests);
    this.tracker.observeUpstream(requests);
    this.eventStore.observe(new EventMetrics(this.registry));
    this.usage.observe(new UsageMetrics(this.registry));
    registerChannelMetrics(this.registry, this.routing);
    registerProjectionMetrics(this.registry, this.projections.runner, this.eventStore);
    registerRetentionMetrics(this.registry, this.retention);
  }
}
