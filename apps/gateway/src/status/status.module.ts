import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { OAuthModule } from '../oauth/oauth.module';
import { SetupModule } from '../setup/setup.module';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

/** Public status, notice and pages, group and model catalogues; the admins' server test. */
@Module({
  imports: [OAuthModule, SetupModule, HealthModule],
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
