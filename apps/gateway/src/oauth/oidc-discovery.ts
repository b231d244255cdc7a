import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { endpointsOfDiscovery, type OidcEndpoints } from './oidc-endpoints';
import { callProviderJson, ProviderCallError } from './provider-http';

/** A discovery document is read again after this long; a failed read is retried after the second. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_RETRY_MS = 60_000;

/** The OpenID provider's discovery document (`oidc.well_known`), read through a cache. */
@Injectable()
export class OidcDiscovery {
  private readonly logger = new Logger('OidcAuth');
  private cache: { url: string; endpoints: OidcEndpoints | null; until: number } | null = null;
  private refreshing: { url: string; read: Promise<OidcEndpoints | null> } | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * The discovery document's endpoints, cached: one read at a time however many callers wait
   * (GET /api/status, polled by every console, asks for them), and once a read succeeded an expired
   * entry is answered from while the next read runs.
   */
  read(url: string): Promise<OidcEndpoints | null> | OidcEndpoints | null {
    const cached = this.cache?.url === url ? this.cache : null;
    if (cached && cached.until > Date.now()) return cached.endpoints;
    let refreshing = this.refreshing?.url === url ? this.refreshing : null;
    if (!refreshing) {
      const read: Promise<OidcEndpoints | null> = this.fetch(url)
        .then((endpoints) => {
          const ttl = endpoints ? DISCOVERY_TTL_MS : DISCOVERY_RETRY_MS;
          this.cache = { url, endpoints, until: Date.now() + ttl };
          return endpoints;
        })
        .finally(() => {
          if (this.refreshing?.read === read) this.refreshing = null;
        });
      refreshing = this.refreshing = { url, read };
    }
    // A good answer, though expired, serves while the next read runs; otherwise wait for it.
    return cached?.endpoints ?? refreshing.read;
  }

  private async fetch(url: string): Promise<OidcEndpoints | null> {
    try {
      const answer = await callProviderJson(url, {}, this.config.oauth.timeoutMs);
      const endpoints = answer.status === 200 ? endpointsOfDiscovery(answer.body) : null;
      if (!endpoints) this.logger.warn(`discovery document unusable: HTTP ${answer.status}`);
      return endpoints;
    } catch (error) {
      // Nothing thrown here may escape: a read nobody waits for would reject unhandled.
      const reason = error instanceof ProviderCallError ? error.message : (error as Error).name;
      this.logger.warn(`discovery document unreachable: ${reason}`);
      return null;
    }
  }
}
