import { Module } from '@nestjs/common';
import { UserRegistrationModule } from '../users/user-registration.module';
import { CompleteSetupHandler } from './commands/complete-setup.handler';
import { SetupController } from './setup.controller';
import { SetupState } from './setup-state';

/** new-api's first-run wizard (GET/POST /api/setup); exports whether it is done for /api/status. */
@Module({
  imports: [UserRegistrationModule],
  controllers: [SetupController],
  providers: [SetupState, CompleteSetupHandler],
  exports: [SetupState],
})
export class SetupModule {}
