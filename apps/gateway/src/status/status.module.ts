import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { SetupModule } from '../setup/setup.module';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

/** Public status, notice and pages, group and model catalogues. */
@Module({
  imports: [OAuthModule, SetupModule],
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
