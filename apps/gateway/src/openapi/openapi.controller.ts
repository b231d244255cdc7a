import { Controller, Get, Header } from '@nestjs/common';
import { OpenApiService } from './openapi.service';

/** The API reference, public: the OpenAPI document as is (for tools) and its rendered page. */
@Controller('api')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  document() {
    return this.openapi.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  docs() {
    return this.openapi.html;
  }
}
