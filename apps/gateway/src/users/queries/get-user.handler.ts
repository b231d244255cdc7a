import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { isRoot, type UserDto } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { BudgetUsage } from '../../billing/budget-usage';
import { maskedSettingText } from '../notification-settings';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { USERS, toUserDto, type UserDocument } from '../user.document';
import { ApiError } from '../../shared/api-error';

export class GetUserQuery extends Query<UserDto> {
  constructor(
    readonly id: number,
    readonly viewer: { id: number; role: number },
  ) {
    super();
  }
}

/** An administrator sees users below their role (and themselves); root sees everyone. */
@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly budgets: BudgetUsage,
  ) {}

  async execute({ id, viewer }: GetUserQuery): Promise<UserDto> {
    const user = await this.readStore.collection<UserDocument>(USERS).get(String(id));
    if (!user) throw new ApiError('user.not_found');
    if (!isRoot(viewer.role) && user.id !== viewer.id && user.role >= viewer.role)
      throw new ApiError('user.forbidden_view_same_or_higher_role');
    const [dto] = this.budgets.fill('user', [toUserDto(user)]);
    // A webhook address can carry a credential: only its owner sees it whole.
    return user.id === viewer.id ? dto! : { ...dto!, setting: maskedSettingText(dto!.setting) };
  }
}
