import { Global, Module } from '@nestjs/common';
import { ResetModelRatiosHandler } from './commands/reset-model-ratios.handler';
import { UpdateOptionHandler } from './commands/update-option.handler';
import { GatewaySecrets } from './gateway-secrets';
import { OptionsCache } from './options.cache';
import { OptionsController } from './options.controller';

/** System options; the options cache is global because every feature reads its switches. */
@Global()
@Module({
  controllers: [OptionsController],
  providers: [OptionsCache, GatewaySecrets, UpdateOptionHandler, ResetModelRatiosHandler],
  exports: [OptionsCache, GatewaySecrets],
})
export class OptionsModule {}
