import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import { ApiError } from '../shared/api-error';

/**
 * Fixed-window limit per client IP on the routes attackers hammer (login, register, mail):
 * CRITICAL_RATE_LIMIT requests per CRITICAL_RATE_LIMIT_DURATION seconds, like the anchors.
 */
@Injectable()
export class CriticalRateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const { max, windowMs } = this.config.criticalRateLimit;
    if (max === 0) return true;
    const ip = context.switchToHttp().getRequest<FastifyRequest>().ip;
    const now = Date.now();
    const window = this.windows.get(ip);
    if (!window || now - window.start >= windowMs) {
      this.windows.set(ip, { start: now, count: 1 });
      this.sweep(now, windowMs);
      return true;
    }
    window.count += 1;
    if (window.count > max) throw new ApiError('common.too_many_requests', {}, 429);
    return true;
  }

  /** Forget expired windows now and then so the map stays bounded by active clients. */
  private sweep(now: number, windowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [ip, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(ip);
  }
}
