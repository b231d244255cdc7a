import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import { TurnstileVerifier } from './turnstile-verifier';

/** Cloudflare's tokens are at most 2048 characters. */
const MAX_TOKEN_LENGTH = 2048;

/**
 * With TurnstileCheckEnabled, the request's `turnstile` query parameter must pass siteverify
 * (register, login, verification mail, reset mail). Off, it is not looked at.
 */
@Injectable()
export class TurnstileGuard implements CanActivate {
  constructor(
    private readonly options: OptionsCache,
    private readonly verifier: TurnstileVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.options.bool('TurnstileCheckEnabled')) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = (request.query as Record<string, unknown> | undefined)?.['turnstile'];
    // A repeated parameter arrives as an array: no single token, so none.
    if (typeof token !== 'string' || token === '') throw new ApiError('turnstile.token_empty');
    if (token.length > MAX_TOKEN_LENGTH) throw new ApiError('turnstile.failed');
    const outcome = await this.verifier.verify(token, request.ip);
    if (outcome === 'unavailable') throw new ApiError('turnstile.unavailable');
    if (outcome === 'refused') throw new ApiError('turnstile.failed');
    return true;
  }
}
