import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OptionsCache } from '../options/options.cache';

/** How long siteverify may take before the check counts as unavailable. */
export const SITEVERIFY_TIMEOUT_MS = 10_000;

export type TurnstileOutcome = 'passed' | 'refused' | 'unavailable';

/**
 * Cloudflare Turnstile's server-side check: the widget's token, the secret key and the client's IP
 * POSTed to siteverify (TURNSTILE_VERIFY_URL). The secret and the token are never logged.
 */
@Injectable()
export class TurnstileVerifier {
  private readonly logger = new Logger('Turnstile');

  constructor(
    private readonly options: OptionsCache,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'turnstileVerifyUrl'>,
  ) {}

  async verify(token: string, remoteIp: string | undefined): Promise<TurnstileOutcome> {
    const form = new URLSearchParams({
      secret: this.options.get('TurnstileSecretKey'),
      response: token,
    });
    if (remoteIp) form.set('remoteip', remoteIp);
    let response: Response;
    try {
      response = await fetch(this.config.turnstileVerifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
      });
    } catch (error) {
      this.logger.warn(`siteverify did not answer: ${(error as Error)?.name ?? 'error'}`);
      return 'unavailable';
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      this.logger.warn(`siteverify answered HTTP ${response.status} without JSON`);
      return 'unavailable';
    }
    return (body as { success?: unknown } | null)?.success === true ? 'passed' : 'refused';
  }
}
