import { Query, QueryBus, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { UserGroupDto } from '@tollgate/contracts';
import { GroupModelsQuery } from '../../channels/queries/channel-queries.handler';
import { OptionsCache } from '../../options/options.cache';
import { groupChoices, usableGroups } from '../usable-groups';

/** Groups a user may use: the admin's UserUsableGroups plus the user's own group (code → label). */
export class UserGroupsQuery extends Query<Record<string, string>> {
  constructor(readonly ownGroup: string) {
    super();
  }
}

/**
 * The group pickers' choices (new-api's GetUserGroups): usable groups that have a GroupRatio, as
 * group → {ratio, desc}. `ownGroup` is '' for an anonymous caller (GET /api/user/groups).
 */
export class GroupChoicesQuery extends Query<Record<string, UserGroupDto>> {
  constructor(readonly ownGroup: string) {
    super();
  }
}

/** The model names the user can call: every usable group's models through enabled channels, once each. */
export class UserModelsQuery extends Query<string[]> {
  constructor(readonly ownGroup: string) {
    super();
  }
}

const usableOf = (options: OptionsCache, ownGroup: string) =>
  usableGroups(options.json<Record<string, string>>('UserUsableGroups', {}), ownGroup);

@QueryHandler(UserGroupsQuery)
export class UserGroupsHandler implements IQueryHandler<UserGroupsQuery> {
  constructor(private readonly options: OptionsCache) {}

  execute({ ownGroup }: UserGroupsQuery): Promise<Record<string, string>> {
    return Promise.resolve(usableOf(this.options, ownGroup));
  }
}

@QueryHandler(GroupChoicesQuery)
export class GroupChoicesHandler implements IQueryHandler<GroupChoicesQuery> {
  constructor(private readonly options: OptionsCache) {}

  execute({ ownGroup }: GroupChoicesQuery): Promise<Record<string, UserGroupDto>> {
    const ratios = this.options.json<Record<string, unknown>>('GroupRatio', {});
    return Promise.resolve(groupChoices(usableOf(this.options, ownGroup), ratios));
  }
}

@QueryHandler(UserModelsQuery)
export class UserModelsHandler implements IQueryHandler<UserModelsQuery> {
  constructor(
    private readonly options: OptionsCache,
    private readonly queries: QueryBus,
  ) {}

  async execute({ ownGroup }: UserModelsQuery): Promise<string[]> {
    // The channels' routing read model says which models each usable group reaches.
    const groups = Object.keys(usableOf(this.options, ownGroup));
    const byGroup = await this.queries.execute(new GroupModelsQuery(groups));
    return [...new Set(Object.values(byGroup).flat())].sort();
  }
}
