import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from './config.tokens';
import type { AppConfig } from './app-config';

/** The configuration read at start-up, injectable everywhere as APP_CONFIG. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
