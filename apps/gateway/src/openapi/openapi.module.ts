import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OpenApiController } from './openapi.controller';
import { OpenApiService } from './openapi.service';

/** GET /api/openapi.json and GET /api/docs, generated from the routes on the first read. */
@Module({
  imports: [DiscoveryModule],
  controllers: [OpenApiController],
  providers: [OpenApiService],
})
export class OpenApiModule {}
