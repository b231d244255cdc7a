import { Module } from '@nestjs/common';
import { UserRegistrationModule } from '../users/user-registration.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { BootstrapRootHandler } from './bootstrap-root.handler';
import { StartupService } from './startup.service';

/** Start-up: catch the read models and caches up with the log, then make sure root exists. */
@Module({
  imports: [UserRegistrationModule, RealtimeModule],
  providers: [BootstrapRootHandler, StartupService],
})
export class BootstrapModule {}
