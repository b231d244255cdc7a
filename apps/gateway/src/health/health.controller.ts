import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReadinessProbe } from './readiness';

/**
 * Liveness and readiness for load balancers and orchestrators (docs/operations.md). Outside /api:
 * no session, no envelope, never cached.
 */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe) {}

  /** 200 while the process serves. */
  @Get('healthz')
  live(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  }

  /** 200 when ready for traffic, else 503; the body names each check. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const readiness = await this.readiness.check();
    void reply.header('cache-control', 'no-store').status(readiness.ready ? 200 : 503);
    return { status: readiness.ready ? 'ready' : 'not_ready', checks: readiness.checks };
  }
}
