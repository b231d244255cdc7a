import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ReadinessProbe } from './readiness';

/** GET /healthz and GET /readyz. */
@Module({ controllers: [HealthController], providers: [ReadinessProbe], exports: [ReadinessProbe] })
export class HealthModule {}
