import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ReadinessProbe } from './readiness';
import { ShutdownDrain } from './shutdown-drain';

/** GET /healthz and GET /readyz, and the drain a shutdown signal starts. */
@Module({
  controllers: [HealthController],
  providers: [ReadinessProbe, ShutdownDrain],
  exports: [ReadinessProbe],
})
export class HealthModule {}
