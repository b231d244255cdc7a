import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ApiError } from '../shared/api-error';
import { FixedWindows } from './fixed-windows';

/**
 * Fixed-window limit per client IP on the routes attackers hammer (login, register, mail):
 * CRITICAL_RATE_LIMIT requests per CRITICAL_RATE_LIMIT_DURATION seconds, like one-api and new-api.
 */
@Injectable()
export class CriticalRateLimitGuard implements CanActivate {
  private readonly windows: FixedWindows;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.windows = new FixedWindows(config.criticalRateLimit);
  }

  canActivate(context: ExecutionContext): boolean {
    const ip = context.switchToHttp().getRequest<FastifyRequest>().ip;
    if (!this.windows.hit(ip, Date.now())) throw new ApiError('common.too_many_requests', {}, 429);
    return true;
  }
}
