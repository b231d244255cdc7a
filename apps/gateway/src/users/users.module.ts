import { Module } from '@nestjs/common';
import { UserRegistrationModule } from './user-registration.module';
import { CreateUserHandler } from './commands/create-user.handler';
import { ManageUserHandler } from './commands/manage-user.handler';
import { UpdateUserHandler } from './commands/update-user.handler';
import { GetUserHandler } from './queries/get-user.handler';
import { ListUsersHandler } from './queries/list-users.handler';
import { UsersController } from './users.controller';

/** User management by administrators. */
@Module({
  imports: [UserRegistrationModule],
  controllers: [UsersController],
  providers: [
    CreateUserHandler,
    UpdateUserHandler,
    ManageUserHandler,
    ListUsersHandler,
    GetUserHandler,
  ],
})
export class UsersModule {}
