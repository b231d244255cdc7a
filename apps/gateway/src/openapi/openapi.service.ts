import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import type { Lang } from '../shared/i18n/messages';
import { APP_CONFIG } from '../config/config.tokens';
import { RelayRoutes } from '../relay/relay.routes';
import { type ControllerClass, controllerRoutes } from './controller-routes';
import type { OpenApiDocument } from './openapi-document';
import { probeRoutes, relayApiRoutes } from './relay-route-list';

const underApi = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The reference, built on its first read (not at start: the document and its pages are ~1 MiB of
 * heap a gateway holds for nothing until someone opens them; the modules that build them,
 * class-validator-jsonschema and the response schemas among them, load then too): the Nest
 * controllers under /api (their decorators' metadata) and the relay's routes (registered on a
 * probe), never a hand-kept list. Each language's page is rendered on its first read too.
 */
@Injectable()
export class OpenApiService {
  private built?: Promise<OpenApiDocument>;
  private readonly pages = new Map<Lang, string>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  document(): Promise<OpenApiDocument> {
    // A failed build is not kept: the next read tries again.
    this.built ??= this.build().catch((error: unknown) => {
      this.built = undefined;
      throw error;
    });
    return this.built;
  }

  /** The rendered page in the reader's language (its own words; the routes' texts are English). */
  async html(lang: Lang): Promise<string> {
    const document = await this.document();
    let page = this.pages.get(lang);
    if (page === undefined) {
      const { renderDocsPage } = await import('./docs-page');
      page = renderDocsPage(document, lang);
      this.pages.set(lang, page);
    }
    return page;
  }

  private async build(): Promise<OpenApiDocument> {
    const controllers = this.discovery
      .getControllers()
      .flatMap((wrapper) =>
        typeof wrapper.metatype === 'function' ? [wrapper.metatype as ControllerClass] : [],
      );
    const relay = await probeRoutes(this.moduleRef.get(RelayRoutes, { strict: false }));
    const { openApiDocument } = await import('./openapi-document');
    return openApiDocument(
      [
        ...controllerRoutes(controllers).filter((route) => underApi(route.path)),
        ...relayApiRoutes(relay),
      ],
      this.config.version,
    );
  }
}
