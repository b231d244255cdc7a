import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import type { Lang } from '../shared/i18n/messages';
import { APP_CONFIG } from '../config/config.tokens';
import { RelayRoutes } from '../relay/relay.routes';
import { type ControllerClass, controllerRoutes } from './controller-routes';
import { renderDocsPage } from './docs-page';
import { openApiDocument, type OpenApiDocument } from './openapi-document';
import { probeRoutes, relayApiRoutes } from './relay-route-list';

const underApi = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The reference, built once when the app has started: the Nest controllers under /api (their
 * decorators' metadata) and the relay's routes (registered on a probe), never a hand-kept list.
 */
@Injectable()
export class OpenApiService implements OnApplicationBootstrap {
  private built?: { document: OpenApiDocument; html: Record<Lang, string> };

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const controllers = this.discovery
      .getControllers()
      .flatMap((wrapper) =>
        typeof wrapper.metatype === 'function' ? [wrapper.metatype as ControllerClass] : [],
      );
    const relay = await probeRoutes(this.moduleRef.get(RelayRoutes, { strict: false }));
    const document = openApiDocument(
      [
        ...controllerRoutes(controllers).filter((route) => underApi(route.path)),
        ...relayApiRoutes(relay),
      ],
      this.config.version,
    );
    this.built = {
      document,
      html: { en: renderDocsPage(document, 'en'), 'zh-CN': renderDocsPage(document, 'zh-CN') },
    };
  }

  get document(): OpenApiDocument {
    return this.ready().document;
  }

  /** The rendered page in the reader's language (its own words; the routes' texts are English). */
  html(lang: Lang): string {
    return this.ready().html[lang];
  }

  private ready(): { document: OpenApiDocument; html: Record<Lang, string> } {
    if (!this.built) throw new Error('the API reference is built when the app has started');
    return this.built;
  }
}
