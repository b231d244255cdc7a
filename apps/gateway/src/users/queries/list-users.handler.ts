import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DEFAULT_PAGE_SIZE, isRoot, type PageOf, type UserDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { BudgetUsage } from '../../billing/budget-usage';
import { maskedSettingText } from '../notification-settings';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { USERS, toUserDto, type UserDocument } from '../user.document';

export class ListUsersQuery extends Query<PageOf<UserDto>> {
  constructor(
    readonly page: number,
    readonly pageSize: number,
    readonly viewer: { id: number; role: number },
    readonly keyword = '',
    readonly group = '',
  ) {
    super();
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Newest first; the keyword matches id, username, display name or email. Deregistered rows stay.
 * An administrator sees the users below their role and themselves, as GET /api/user/:id allows;
 * root sees everyone.
 */
export function userSearchFilter(
  keyword: string,
  group: string,
  viewer: { id: number; role: number },
): Filter {
  const filter: Filter = {};
  const term = keyword.trim();
  if (term) {
    const pattern = { $regex: escapeRegex(term), $options: 'i' };
    const anyOf: Filter[] = [{ username: pattern }, { display_name: pattern }, { email: pattern }];
    if (/^\d+$/.test(term)) anyOf.push({ id: Number(term) });
    filter['$or'] = anyOf;
  }
  if (group.trim()) filter['group'] = group.trim();
  if (isRoot(viewer.role)) return filter;
  const visible: Filter = { $or: [{ role: { $lt: viewer.role } }, { id: viewer.id }] };
  return Object.keys(filter).length === 0 ? visible : { $and: [filter, visible] };
}

@QueryHandler(ListUsersQuery)
export class ListUsersHandler implements IQueryHandler<ListUsersQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly budgets: BudgetUsage,
  ) {}

  async execute({
    page,
    pageSize,
    viewer,
    keyword,
    group,
  }: ListUsersQuery): Promise<PageOf<UserDto>> {
    const size = pageSize || DEFAULT_PAGE_SIZE;
    const current = Math.max(1, page);
    const users = this.readStore.collection<UserDocument>(USERS);
    const filter = userSearchFilter(keyword, group, viewer);
    const [docs, total] = await Promise.all([
      users.find(filter, { sort: { id: -1 }, skip: (current - 1) * size, limit: size }),
      users.count(filter),
    ]);
    // A webhook address can carry a credential: only its owner sees it whole.
    const items = this.budgets
      .fill('user', docs.map(toUserDto))
      .map((dto) =>
        dto.id === viewer.id ? dto : { ...dto, setting: maskedSettingText(dto.setting) },
      );
    return { items, total, page: current, page_size: size };
  }
}
