import { Controller, Get, Header, Headers } from '@nestjs/common';
import { pickLang } from '../shared/i18n/messages';
import { OpenApiService } from './openapi.service';

/** The API reference, public: the OpenAPI document as is (for tools) and its rendered page. */
@Controller('api')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  document() {
    return this.openapi.document();
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  docs(@Headers('accept-language') acceptLanguage?: string) {
    return this.openapi.html(pickLang(acceptLanguage));
  }
}
