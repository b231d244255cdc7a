import { Inject, Injectable } from '@nestjs/common';
import type StripeType from 'stripe';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';

/** Bound of one call to the Stripe API (the library's default is 80 s). */
const STRIPE_TIMEOUT_MS = 20_000;

/** `new Stripe(key, {host, port, protocol})` from STRIPE_API_BASE (https://api.stripe.com). */
export function stripeEndpoint(apiBase: string): {
  host: string;
  port: number;
  protocol: 'http' | 'https';
} {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * The official `stripe` library, loaded on first use (most gateways never take a Stripe payment,
 * so start-up does not pay for it), one client per API key. The key lives in the client only: it is
 * never logged, and the library never puts it in its errors.
 */
@Injectable()
export class StripeClients {
  private library?: Promise<typeof StripeType>;
  private cached?: { readonly key: string; readonly client: StripeType };

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'stripeApiBase'>) {}

  async client(apiKey: string): Promise<StripeType> {
    if (this.cached?.key === apiKey) return this.cached.client;
    this.library ??= import('stripe').then((module) => module.default);
    const StripeLibrary = await this.library;
    const client = new StripeLibrary(apiKey, {
      ...stripeEndpoint(this.config.stripeApiBase),
      timeout: STRIPE_TIMEOUT_MS,
      maxNetworkRetries: 1,
      telemetry: false,
    });
    this.cached = { key: apiKey, client };
    return client;
  }
}
