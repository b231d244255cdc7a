import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CompleteSetupHandler } from './commands/complete-setup.handler';
import { SetupController } from './setup.controller';
import { SetupState } from './setup-state';

/** new-api's first-run wizard (GET/POST /api/setup); exports whether it is done for /api/status. */
@Module({
  imports: [AccountsModule],
  controllers: [SetupController],
  providers: [SetupState, CompleteSetupHandler],
  exports: [SetupState],
})
export class SetupModule {}
