import { Module } from '@nestjs/common';
import { MailCoreModule } from '../mail/mail-core.module';
import { AccountsController } from './accounts.controller';
import { DeleteSelfHandler } from './commands/delete-self.handler';
import { IssueAccessTokenHandler } from './commands/issue-access-token.handler';
import { RecoverRegistrationsHandler } from './commands/recover-registrations.handler';
import { RegisterUserHandler } from './commands/register-user.handler';
import { RehashPasswordHandler } from './commands/rehash-password.handler';
import { SignOutHandler } from './commands/sign-out.handler';
import { TransferAffQuotaHandler } from './commands/transfer-aff-quota.handler';
import { UpdateSelfHandler } from './commands/update-self.handler';
import { LoginHandler } from './queries/login.handler';
import {
  GroupChoicesHandler,
  UserGroupsHandler,
  UserModelsHandler,
} from './queries/user-groups.handler';
import { UserRegistrationModule } from '../users/user-registration.module';

/** Sign-in, registration and the self-service account endpoints. */
@Module({
  imports: [MailCoreModule, UserRegistrationModule],
  controllers: [AccountsController],
  providers: [
    RegisterUserHandler,
    RehashPasswordHandler,
    RecoverRegistrationsHandler,
    SignOutHandler,
    UpdateSelfHandler,
    DeleteSelfHandler,
    IssueAccessTokenHandler,
    TransferAffQuotaHandler,
    LoginHandler,
    UserGroupsHandler,
    GroupChoicesHandler,
    UserModelsHandler,
  ],
})
export class AccountsModule {}
